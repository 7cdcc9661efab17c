import "server-only";
import pg from "pg";
import type { Database } from "@/lib/db/connect";
import { env } from "@/lib/env";
import { slotTarget, type SlotHolder } from "@/lib/harness/fair-share";

/**
 * Concurrency that holds across workers: a request in flight occupies one slot of its run (at most
 * the run's concurrency) and one slot of its endpoint (at most the endpoint's limit). A slot is a
 * session advisory lock, pg_try_advisory_lock(class + slot, key), on a connection the chunk keeps
 * for itself — so a killed worker's slots are freed with its connection, with no heartbeat.
 * The chunk's own lock (one worker per chunk) is on the same connection.
 *
 * How many slots a chunk holds is not fixed: `ChunkSlots.rebalance` reads who holds what on the
 * endpoint from pg_locks (each session's chunk lock names its run, its endpoint slots say how many
 * it holds, its "hungry" lock that it wants more) and moves to its fair share (fair-share.ts).
 */
const RUN_SLOT_CLASS = 7_349_000; // + slot (< 1024): key = run id
const ENDPOINT_SLOT_CLASS = 7_351_000; // + slot (< 1024): key = hash of the candidate id
const CHUNK_CLASS = 7_353_000; // + chunk index mod 1000: key = run id
const HUNGRY_CLASS = 7_355_000; // shared: key = hash of the candidate id

/** A 32-bit signed key from a text id (advisory lock keys are int4 pairs). */
export function keyOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

export interface SlotSession {
  /** Null on the embedded database: one process, nothing to share with. */
  client: pg.Client | null;
  /** The connection's backend pid: how pg_locks names this session. */
  pid: number;
  close(): Promise<void>;
}

export async function openSlotSession(database: Database): Promise<SlotSession> {
  if (database.mode !== "server") return { client: null, pid: 0, close: async () => {} };
  const client = new pg.Client(database.pool.options);
  await client.connect();
  client.on("error", () => {});
  const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  return { client, pid, close: () => client.end().catch(() => {}) };
}

const tryLock = async (client: pg.Client, a: number, b: number) =>
  (await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [a, b])).rows[0]?.ok === true;

/**
 * Slots cls+0, cls+1, … cls+count−1 of `key`, tried in order until `want` are taken, in one
 * statement (a statement per slot made 256 round trips of a chunk at concurrency 64, taking and
 * giving back). The executor tests the rows one by one and stops at the LIMIT, so no slot beyond
 * those returned is taken (slots.test.ts counts the session's locks). The session's own slots are
 * skipped: an advisory lock is re-entrant, so trying one again would "take" it a second time.
 */
async function trySlots(
  client: pg.Client,
  cls: number,
  key: number,
  count: number,
  want: number,
  own: readonly number[],
): Promise<number[]> {
  if (want <= 0 || count <= 0) return [];
  const { rows } = await client.query<{ s: number }>(
    "SELECT s FROM generate_series(0, $2::int - 1) s WHERE s <> ALL($5::int[]) AND pg_try_advisory_lock($1::int + s, $3::int) LIMIT $4",
    [cls, Math.min(count, 1024), key, want, own],
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

/** Requests in flight from this process, all its chunks together (VERDICT_HARNESS_WORKER_SLOTS caps them). */
const processSlots = globalThis as typeof globalThis & { __verdictHarnessHeld?: { held: number } };
const inProcess = (processSlots.__verdictHarnessHeld ??= { held: 0 });

/**
 * The chunks holding or wanting slots of an endpoint, from pg_locks: a session's chunk lock gives
 * its run, its endpoint slots how many it holds, its shared hungry lock that it wants more. A
 * killed worker's sessions are gone from pg_locks with their connections. (pg_locks shows an
 * int4 key as an unsigned oid, hence the mask.)
 */
async function endpointHolders(client: pg.Client, endpointKey: number): Promise<SlotHolder[]> {
  const { rows } = await client.query<SlotHolder>(
    `WITH l AS (
       SELECT pid, classid::int8 AS c, objid::int8 AS o FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
     ), mine AS (
       SELECT pid, count(*) FILTER (WHERE c <> $3)::int AS held, bool_or(c = $3) AS hungry FROM l
        WHERE o = ($4::int8 & 4294967295) AND ((c >= $1 AND c < $1 + 1024) OR c = $3) GROUP BY pid
     ), chunk AS (
       SELECT DISTINCT ON (pid) pid, o AS run FROM l WHERE c >= $2 AND c < $2 + 1000 ORDER BY pid, o
     )
     SELECT mine.pid AS session, r.id AS "runId", r.concurrency, mine.held, mine.hungry
       FROM mine JOIN chunk USING (pid) JOIN "HarnessRun" r ON r.id = chunk.run`,
    [ENDPOINT_SLOT_CLASS, CHUNK_CLASS, HUNGRY_CLASS, endpointKey],
  );
  return rows;
}

/**
 * One chunk's request slots (as many run slots as endpoint slots, paired). `rebalance(want)` moves
 * to the chunk's fair share of the endpoint, at most `want` (its items left, its run's concurrency)
 * and what this process may still hold; `settle(inUse)` gives back what its requests no longer use.
 * Operations run one after another on the session's connection.
 */
export class ChunkSlots {
  private runSlots: number[] = [];
  private endpointSlots: number[] = [];
  private hungry = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly endpointKey: number;
  private readonly processCap = env().VERDICT_HARNESS_WORKER_SLOTS ?? Infinity;

  constructor(
    private readonly session: SlotSession,
    private readonly run: { id: number; concurrency: number; candidateId: string },
    readonly endpointLimit: number,
  ) {
    this.endpointKey = keyOf(run.candidateId);
  }

  get held(): number {
    return this.endpointSlots.length;
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op);
    this.chain = next.catch(() => {});
    return next;
  }

  /**
   * Moves toward the fair share. `want()` is what the chunk could use now (its requests in flight
   * and items not started); `apply(allowed)` is called inside the operation, before any later
   * `settle`, with the requests the chunk may have in flight now.
   */
  rebalance(want: () => number, apply: (allowed: number) => void): Promise<void> {
    return this.serial(async () => {
      const demand = Math.min(want(), this.run.concurrency, this.held + this.processCap - inProcess.held);
      const client = this.session.client;
      if (!client) {
        await this.grow(demand - this.held);
        return apply(this.held);
      }
      await this.markHungry(this.held < demand);
      const target = slotTarget(this.endpointLimit, await endpointHolders(client, this.endpointKey), this.session.pid);
      const goal = Math.min(target, demand);
      if (goal > this.held) await this.grow(goal - this.held);
      await this.markHungry(this.held < demand);
      apply(Math.min(goal, this.held));
    });
  }

  /** Gives back the slots beyond `inUse()` (requests finished and not followed). */
  settle(inUse: () => number): Promise<void> {
    return this.serial(() => this.shrink(this.held - inUse()));
  }

  /** Everything back (the chunk ends). */
  release(): Promise<void> {
    return this.serial(async () => {
      await this.shrink(this.held);
      await this.markHungry(false);
    });
  }

  private async grow(n: number): Promise<void> {
    const client = this.session.client;
    if (n <= 0) return;
    if (!client) {
      for (let i = 0; i < n; i++) this.endpointSlots.push(i);
      inProcess.held += n;
      return;
    }
    const runSlots = await trySlots(client, RUN_SLOT_CLASS, this.run.id, this.run.concurrency, n, this.runSlots);
    const endpointSlots = await trySlots(
      client,
      ENDPOINT_SLOT_CLASS,
      this.endpointKey,
      this.endpointLimit,
      runSlots.length,
      this.endpointSlots,
    );
    await unlockSlots(client, RUN_SLOT_CLASS, this.run.id, runSlots.splice(endpointSlots.length));
    this.runSlots.push(...runSlots);
    this.endpointSlots.push(...endpointSlots);
    inProcess.held += endpointSlots.length;
  }

  private async shrink(n: number): Promise<void> {
    if (n <= 0) return;
    const runSlots = this.runSlots.splice(this.runSlots.length - n);
    const endpointSlots = this.endpointSlots.splice(this.endpointSlots.length - n);
    inProcess.held -= endpointSlots.length;
    const client = this.session.client;
    if (!client) return;
    await unlockSlots(client, RUN_SLOT_CLASS, this.run.id, runSlots);
    await unlockSlots(client, ENDPOINT_SLOT_CLASS, this.endpointKey, endpointSlots);
  }

  /** The shared lock other chunks on the endpoint read as "this one wants more than it holds". */
  private async markHungry(hungry: boolean): Promise<void> {
    const client = this.session.client;
    if (!client || hungry === this.hungry) return;
    const fn = hungry ? "pg_advisory_lock_shared" : "pg_advisory_unlock_shared";
    await client.query(`SELECT ${fn}($1::int, $2::int)`, [HUNGRY_CLASS, this.endpointKey]);
    this.hungry = hungry;
  }
}

/** The endpoint slots held now across every worker: the requests in flight to a candidate's endpoint (tests, benchmarks). */
export async function endpointSlotsHeld(client: pg.Client, candidateId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
        AND classid::int8 >= $1 AND classid::int8 < $1 + 1024 AND objid::int8 = ($2::int8 & 4294967295)`,
    [ENDPOINT_SLOT_CLASS, keyOf(candidateId)],
  );
  return rows[0]!.n;
}
