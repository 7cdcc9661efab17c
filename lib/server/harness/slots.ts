import "server-only";
import pg from "pg";
import type { Database } from "@/lib/db/connect";

/**
 * Concurrency that holds across workers: a request in flight occupies one slot of its run (at most
 * the run's concurrency) and one slot of its endpoint (at most the endpoint's limit). A slot is a
 * session advisory lock, pg_try_advisory_lock(class + slot, key), on a connection the chunk keeps
 * for itself — so a killed worker's slots are freed with its connection, with no heartbeat.
 * The chunk's own lock (one worker per chunk) is on the same connection.
 */
const RUN_SLOT_CLASS = 7_349_000; // + slot (< 1024): key = run id
const ENDPOINT_SLOT_CLASS = 7_351_000; // + slot (< 1024): key = hash of the candidate id
const CHUNK_CLASS = 7_353_000; // + chunk index mod 1000: key = run id

/** A 32-bit signed key from a text id (advisory lock keys are int4 pairs). */
export function keyOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

export interface SlotSession {
  /** Null on the embedded database: one process, nothing to share with. */
  client: pg.Client | null;
  close(): Promise<void>;
}

export async function openSlotSession(database: Database): Promise<SlotSession> {
  if (database.mode !== "server") return { client: null, close: async () => {} };
  const client = new pg.Client(database.pool.options);
  await client.connect();
  client.on("error", () => {});
  return { client, close: () => client.end().catch(() => {}) };
}

const tryLock = async (client: pg.Client, a: number, b: number) =>
  (await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [a, b])).rows[0]?.ok === true;

/**
 * Slots cls+0, cls+1, … cls+count−1 of `key`, tried in order until `want` are taken, in one
 * statement (a statement per slot made 256 round trips of a chunk at concurrency 64, taking and
 * giving back). The executor tests the rows one by one and stops at the LIMIT, so no slot beyond
 * those returned is taken (slots.test.ts counts the session's locks).
 */
async function trySlots(client: pg.Client, cls: number, key: number, count: number, want: number): Promise<number[]> {
  if (want <= 0 || count <= 0) return [];
  const { rows } = await client.query<{ s: number }>(
    "SELECT s FROM generate_series(0, $2::int - 1) s WHERE pg_try_advisory_lock($1::int + s, $3::int) LIMIT $4",
    [cls, Math.min(count, 1024), key, want],
  );
  return rows.map((r) => r.s);
}

async function unlockSlots(client: pg.Client, cls: number, key: number, slots: readonly number[]): Promise<void> {
  if (slots.length === 0) return;
  await client.query("SELECT pg_advisory_unlock($1::int + s, $2::int) FROM unnest($3::int[]) s", [cls, key, slots]);
}

/** The chunk's lock: false when another worker executes it now. */
export async function lockChunk(session: SlotSession, runId: number, chunk: number): Promise<boolean> {
  return session.client ? tryLock(session.client, CHUNK_CLASS + (chunk % 1000), runId) : true;
}

/**
 * Takes up to `want` slots: run slots 0..runConcurrency−1 first, then as many endpoint slots
 * (0..endpointLimit−1); run slots beyond the endpoint slots obtained are given back. Returns how
 * many requests this chunk may have in flight (0: all taken, try later).
 */
export async function takeSlots(
  session: SlotSession,
  run: { id: number; concurrency: number; candidateId: string },
  endpointLimit: number,
  want: number,
): Promise<{ held: number; release(): Promise<void> }> {
  const client = session.client;
  if (!client) return { held: Math.min(want, run.concurrency, endpointLimit), release: async () => {} };
  const endpointKey = keyOf(run.candidateId);
  const runSlots = await trySlots(client, RUN_SLOT_CLASS, run.id, run.concurrency, want);
  const endpointSlots = await trySlots(client, ENDPOINT_SLOT_CLASS, endpointKey, endpointLimit, runSlots.length);
  await unlockSlots(client, RUN_SLOT_CLASS, run.id, runSlots.splice(endpointSlots.length));
  return {
    held: endpointSlots.length,
    release: async () => {
      await unlockSlots(client, RUN_SLOT_CLASS, run.id, runSlots);
      await unlockSlots(client, ENDPOINT_SLOT_CLASS, endpointKey, endpointSlots);
    },
  };
}
