import "server-only";
import { env } from "@/lib/env";
import { rawQuery, type Database } from "@/lib/db/connect";
import { callWithRetries, ChatClient } from "@/lib/harness/network/chat-client";
import { contractValidator, parseOutput } from "@/lib/harness/parse-output";
import {
  messageRenderer,
  protocolSchema,
  type ChatMessage,
  type EvalProtocol,
  type PromptItem,
} from "@/lib/harness/protocol";
import { ItemWriter, type ItemResult } from "./item-writer";
import { decryptSecret } from "./secrets";
import { ChunkSlots, lockChunk, openSlotSession } from "./slots";

/** The run's endpoint as frozen at its start (no key: that is read, encrypted, when a chunk runs). */
export interface EndpointSnapshot {
  baseUrl: string;
  model: string;
  apiKeyFingerprint: string | null;
  concurrency: number;
  rateLimitRps: number | null;
  simulated: boolean;
}

/** Knobs of the worker's client (environment): a stall, the attempts and the first backoff. */
export const harnessLimits = () => ({
  stallTimeoutMs: env().VERDICT_HARNESS_STALL_MS ?? 60_000,
  maxAttempts: env().VERDICT_HARNESS_MAX_ATTEMPTS ?? 4,
  baseDelayMs: env().VERDICT_HARNESS_BACKOFF_MS ?? 500,
});

/** Cancels reach this process's chunks at once (other workers see it at their next flush). */
const holder = globalThis as typeof globalThis & { __verdictHarnessAborts?: Map<number, Set<AbortController>> };
const aborts = (holder.__verdictHarnessAborts ??= new Map());
export function abortLocalChunks(runId: number) {
  for (const c of aborts.get(runId) ?? []) c.abort();
}

export type ChunkOutcome = "done" | "taken" | "no-slots" | "skipped" | "cancelled";

/** How often a chunk moves to its fair share of the endpoint (slots.ts), and how long it waits for a first slot. */
export const REBALANCE_MS = 100;
const NO_SLOT_WAIT_MS = 5_000;

/**
 * Executes one chunk of a run: the chunk's items (in item id order) that have no stored result,
 * with as many requests in flight as the slots it holds (slots.ts) — a number that follows its fair
 * share of the endpoint while it runs. Each result is stored as it arrives (item-writer.ts), so a
 * kill loses no stored item and resume calls only the others. `onAllStarted` is called once every
 * item has been sent (the chunk's tail: its process may start the run's next chunk).
 * "taken": another worker executes this chunk; "no-slots": no slot came within NO_SLOT_WAIT_MS
 * (retry later; items stored so far stay).
 */
export async function executeChunk(
  database: Database,
  runId: number,
  chunk: number,
  onAllStarted: () => void = () => {},
): Promise<ChunkOutcome> {
  const session = await openSlotSession(database);
  try {
    if (!(await lockChunk(session, runId, chunk))) return "taken";
    const [run] = await rawQuery<{
      id: number;
      status: string;
      candidateId: string;
      datasetVersionId: number;
      concurrency: number;
      chunkSize: number;
      itemCount: number;
      protocol: unknown;
      endpoint: EndpointSnapshot;
      apiKeyCiphertext: string | null;
    }>(
      database,
      `SELECT r.id, r.status::text AS status, r."candidateId", r."datasetVersionId", r.concurrency, r."chunkSize", r."itemCount", r.protocol, r.endpoint, e."apiKeyCiphertext"
         FROM "HarnessRun" r LEFT JOIN "CandidateEndpoint" e ON e."candidateId" = r."candidateId" WHERE r.id = $1`,
      [runId],
    );
    if (!run || (run.status !== "QUEUED" && run.status !== "RUNNING")) return "skipped";
    const offset = chunk * run.chunkSize;
    const size = Math.max(0, Math.min(run.chunkSize, run.itemCount - offset));
    const items = await rawQuery<PromptItem>(
      database,
      `SELECT c."itemId", c.text, c.slice FROM (
         SELECT "itemId", text, slice FROM "DatasetItem" WHERE "datasetVersionId" = $1 ORDER BY "itemId" COLLATE "C" OFFSET $2 LIMIT $3
       ) c WHERE NOT EXISTS (SELECT 1 FROM "HarnessItem" h WHERE h."harnessRunId" = $4 AND h."itemId" = c."itemId")
       ORDER BY c."itemId" COLLATE "C"`,
      [run.datasetVersionId, offset, size, runId],
    );
    if (items.length === 0) return "done";
    const slots = new ChunkSlots(session, run, run.endpoint.concurrency);
    try {
      if (!(await firstSlots(slots, items.length))) return "no-slots";
      await rawQuery(database, `UPDATE "HarnessRun" SET status = 'RUNNING' WHERE id = $1 AND status = 'QUEUED'`, [
        runId,
      ]);
      return await callAll(database, run, items, slots, onAllStarted);
    } finally {
      await slots.release();
    }
  } finally {
    await session.close();
  }
}

/**
 * One item through the endpoint (with the run's retries) and the output contract: what a run
 * stores for each item, and what "Test the endpoint" shows for one — the same code path.
 */
export async function answerItem(
  client: ChatClient,
  protocol: EvalProtocol,
  validator: ReturnType<typeof contractValidator>,
  messages: ChatMessage[],
  retry: Parameters<typeof callWithRetries>[2],
) {
  const call = await callWithRetries(client, messages, retry);
  const parsed = call.completed ? parseOutput(protocol, call.text, call.firstTokenLogprobs, validator) : null;
  return { call, parsed };
}

/** Waits (hungry, so chunks above their share give way) until the chunk holds a slot: false after NO_SLOT_WAIT_MS. */
async function firstSlots(slots: ChunkSlots, items: number): Promise<boolean> {
  const until = performance.now() + NO_SLOT_WAIT_MS;
  for (;;) {
    await slots.rebalance(
      () => items,
      () => {},
    );
    if (slots.held > 0) return true;
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, REBALANCE_MS));
  }
}

async function callAll(
  database: Database,
  run: {
    id: number;
    concurrency: number;
    protocol: unknown;
    endpoint: EndpointSnapshot;
    apiKeyCiphertext: string | null;
  },
  items: PromptItem[],
  slots: ChunkSlots,
  onAllStarted: () => void,
): Promise<ChunkOutcome> {
  const protocol = protocolSchema.parse(run.protocol);
  const validator = contractValidator(protocol);
  const render = messageRenderer(protocol);
  const limits = harnessLimits();
  const apiKey = run.apiKeyCiphertext ? decryptSecret(run.apiKeyCiphertext) : null;
  const client = new ChatClient({ baseUrl: run.endpoint.baseUrl, model: run.endpoint.model, apiKey }, protocol, {
    connections: Math.min(run.concurrency, items.length),
    stallTimeoutMs: limits.stallTimeoutMs,
  });
  const controller = new AbortController();
  const mine = aborts.get(run.id) ?? new Set<AbortController>();
  aborts.set(run.id, mine.add(controller));
  const writer = new ItemWriter(database, run.id, (status) => {
    if (status !== "RUNNING" && status !== "QUEUED") controller.abort();
  });
  // The endpoint's rate limit, shared out by slots: this chunk starts at most rps × held / limit a second.
  const rps = run.endpoint.rateLimitRps;
  let nextStart = performance.now();
  const pace = async () => {
    if (!rps || slots.held === 0) return;
    const wait = nextStart - performance.now();
    nextStart = Math.max(nextStart, performance.now()) + 1000 / ((rps * slots.held) / run.endpoint.concurrency);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  const retry = { ...limits, signal: controller.signal };
  const answer = async (item: PromptItem) => {
    await pace();
    const { call, parsed } = await answerItem(client, protocol, validator, render(item), retry);
    if (controller.signal.aborted) return;
    writer.push({
      itemId: item.itemId,
      completed: call.completed,
      rawOutput: call.completed || call.text ? call.text : null,
      predicted: parsed?.ok ? parsed.predicted : null,
      score: parsed?.ok ? parsed.score : null,
      parseFailure: parsed && !parsed.ok ? parsed.reason : null,
      httpStatus: call.status,
      error: call.error,
      attempts: call.attempts,
      inputTokens: call.inputTokens,
      outputTokens: call.outputTokens,
      ttftMs: call.ttftMs,
      e2eMs: call.e2eMs,
      itlMs: call.itlMs,
      startedAt: call.startedAt,
    } satisfies ItemResult);
  };
  let outcome: ChunkOutcome = "done";
  try {
    if (!(await requestPool(slots, items, answer, controller.signal, onAllStarted))) outcome = "no-slots";
    await writer.close();
  } finally {
    mine.delete(controller);
    await client.close();
  }
  return writer.status === "CANCELLED" || controller.signal.aborted ? "cancelled" : outcome;
}

/**
 * The chunk's requests in flight: one loop per slot allowed, each taking the next item. Every
 * REBALANCE_MS the slots move to the chunk's fair share: more loops start when it grows; when it
 * shrinks, loops end as their request ends and give their slot back at once (so does a loop that
 * finds no item left). Resolves true when every item was answered (or the run cancelled), false
 * when the chunk held no slot for NO_SLOT_WAIT_MS with items left.
 */
function requestPool(
  slots: ChunkSlots,
  items: readonly PromptItem[],
  answer: (item: PromptItem) => Promise<void>,
  signal: AbortSignal,
  onAllStarted: () => void,
): Promise<boolean> {
  let next = 0;
  let active = 0;
  let allowed = 0;
  let idleSince = performance.now();
  return new Promise<boolean>((resolve, reject) => {
    const finished = () => signal.aborted || next >= items.length;
    const loop = async () => {
      try {
        while (!signal.aborted && active <= allowed && next < items.length) {
          const item = items[next++]!;
          if (next === items.length) onAllStarted();
          await answer(item);
        }
      } catch (error) {
        fail(error);
      } finally {
        active--;
        void slots.settle(() => active).catch(fail);
        if (active === 0) idleSince = performance.now();
        if (active === 0 && finished()) done(true);
      }
    };
    let closed = false;
    const apply = (a: number) => {
      allowed = a;
      while (!closed && active < allowed && next < items.length && !signal.aborted) {
        active++;
        void loop();
      }
    };
    const tick = setInterval(() => {
      if (active === 0 && finished()) return done(true);
      if (active === 0 && performance.now() - idleSince > NO_SLOT_WAIT_MS) return done(false);
      slots.rebalance(() => Math.min(active + items.length - next, items.length), apply).catch(fail);
    }, REBALANCE_MS);
    const done = (answered: boolean) => {
      closed = true;
      clearInterval(tick);
      resolve(answered);
    };
    const fail = (error: unknown) => {
      closed = true;
      clearInterval(tick);
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    void slots.rebalance(() => items.length, apply).catch(fail);
  });
}
