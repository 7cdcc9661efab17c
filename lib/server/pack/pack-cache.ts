import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * The page's read model, kept across requests (issue 12 item 1): each part of a decision's pack
 * is read once per evidence state and reused until that state changes. The state is one cheap
 * query, read once per request: every mutation of a decision's evidence or parameters writes an
 * audit event with the decision's id in its own transaction (and touches the decision row when it
 * changes a parameter), and the metrics jobs, which write no audit event, change their run's
 * status and `computedAt`, the stored comparisons and whether they are current. So a mutation invalidates the cache by the
 * very write that commits it — on every app server, with nothing to broadcast — and a stale part
 * is never served. Per process, bounded, never shared between decisions.
 */
const MAX_DECISIONS = 64;
const entries = new Map<string, { state: string; parts: Map<string, Promise<unknown>> }>();

export async function evidenceState(client: PrismaClient, decisionId: string): Promise<string> {
  const rows = await client.$queryRaw<{ state: string | null }[]>`
    SELECT concat_ws('|',
      (SELECT extract(epoch FROM d."updatedAt")::text FROM "Decision" d WHERE d.id = ${decisionId}),
      (SELECT max(a.id)::text FROM "AuditEvent" a WHERE a."decisionId" = ${decisionId}),
      (SELECT string_agg(r.id::text || ':' || r.status::text || ':' || coalesce(extract(epoch FROM r."computedAt")::text, ''), ',' ORDER BY r.id) FROM "EvalRun" r WHERE r."decisionId" = ${decisionId}),
      (SELECT md5(string_agg(c::text, ',' ORDER BY c."runAId", c."runBId")) FROM "RunComparison" c WHERE c."decisionId" = ${decisionId}),
      (SELECT s.wanted::text || ':' || s.computed::text FROM "ComparisonState" s WHERE s."decisionId" = ${decisionId})
    ) AS state`;
  return rows[0]?.state ?? "";
}

/** One part of the pack read at `state`: the stored read when the state is unchanged, else `read()` (a failed read is not kept). */
export function cachedPart<T>(decisionId: string, state: string, part: string, read: () => Promise<T>): Promise<T> {
  let entry = entries.get(decisionId);
  if (!entry || entry.state !== state) {
    entries.delete(decisionId);
    entry = { state, parts: new Map() };
    entries.set(decisionId, entry);
    if (entries.size > MAX_DECISIONS) entries.delete(entries.keys().next().value!);
  }
  const kept = entry.parts.get(part) as Promise<T> | undefined;
  if (kept) return kept;
  const parts = entry.parts;
  const value = read();
  parts.set(part, value);
  value.catch(() => parts.get(part) === value && parts.delete(part));
  return value;
}
