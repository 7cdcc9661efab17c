import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { Tx } from "../db";
import { SIGNATURE_SELECT } from "./signature-select";
import { OPERATOR_LABEL } from "@/lib/auth/enrolment";

/** One break in the chain or in a record it vouches for (verify.ts reports them; the record check finds some). */
export interface BrokenLink {
  id: string;
  reason:
    | "prev-hash-mismatch"
    | "content-hash-mismatch"
    | "head-missing"
    | "head-mismatch"
    | "record-mismatch"
    | "record-missing"
    | "record-unrecorded";
  message: string;
  expected: string;
  found: string;
}

/** The creation event of each signature and pack revision, by record id, as the chain walk found them. */
export interface RecordEvents {
  signatures: Map<string, RecordEvent>;
  revisions: Map<string, RecordEvent>;
  /** user.confirm_signer events by the confirmed user's id, in chain order (four-eyes enrolment). */
  confirmations: Map<string, RecordEvent[]>;
}
interface RecordEvent {
  eventId: string;
  decisionId: string | null;
  after: unknown;
}

/** The fields of a signature its signature.create event states (sign-pack.ts writes them all). */
const SIGNATURE_FIELDS = [
  "id",
  "packRevisionId",
  "revisionSha256",
  "signerId",
  "printedName",
  "signerEmail",
  "enrolledBy",
  "confirmedBy",
  "meaning",
  "candidateId",
  "reason",
  "waiver",
  "operatingThreshold",
  "operatingRule",
  "signedAt",
] as const;

const MAX_PROBLEMS = 100;

/**
 * Checks the signed records through the verified chain: every Signature and PackRevision row
 * must equal what its creation event recorded (the event's hash vouches for the event), a
 * revision's canonical JSON must still hash to its SHA-256, and a record whose event names it
 * must still exist. So a row written, edited or deleted by the owner with the triggers disabled
 * — or a TRUNCATE — is reported, though the chain itself is whole.
 */
export async function readRecords(client: PrismaClient | Tx) {
  // The SHA-256 of each revision's JSON is computed in the database: the JSON can be large.
  const revisions = await client.$queryRaw<
    { id: string; decisionId: string; number: number; sha256: string; actual: string }[]
  >`
    SELECT id, "decisionId", number, sha256, encode(sha256(convert_to("canonicalJson", 'UTF8')), 'hex') AS actual FROM "PackRevision" ORDER BY id`;
  const signatures = await client.signature.findMany({
    orderBy: { id: "asc" },
    select: { ...SIGNATURE_SELECT, decisionId: true },
  });
  return { revisions, signatures };
}

/** A record whose creation event is at or before the horizon but whose row is not there: deleted. */
function reportDeleted(
  recorded: Map<string, RecordEvent>,
  present: { has(id: string): boolean },
  horizon: bigint,
  report: (p: BrokenLink) => void,
  names: { what: (id: string) => string; row: string },
) {
  for (const [id, event] of recorded) {
    if (!present.has(id) && BigInt(event.eventId) <= horizon)
      report({
        id,
        reason: "record-missing",
        message: `${names.what(id)}, recorded by event ${event.eventId}, is gone: it was deleted.`,
        expected: names.row,
        found: "none",
      });
  }
}

/**
 * The records must be read after `horizon` (the newest event id then) and before the chain
 * walk that collected `events`: a record read has its event (same transaction, committed
 * before), and only an event up to the horizon must still have its record — a signature being
 * written meanwhile is neither a false "unrecorded" nor a false "missing".
 */
export function checkRecords(
  { revisions, signatures }: Awaited<ReturnType<typeof readRecords>>,
  events: RecordEvents,
  horizon: bigint,
) {
  const problems: BrokenLink[] = [];
  const report = (p: BrokenLink) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const revisionSha = new Map<string, string>();
  for (const r of revisions) {
    revisionSha.set(r.id, r.sha256);
    const event = events.revisions.get(r.id);
    const after = (event?.after ?? {}) as { revision?: number; sha256?: string };
    if (!event)
      report({
        id: r.id,
        reason: "record-unrecorded",
        message: `Pack revision ${r.number} (${r.id}) of decision ${r.decisionId} has no pack_revision.create event: it was written outside the app.`,
        expected: "a pack_revision.create event",
        found: "none",
      });
    else if (r.actual !== r.sha256)
      report({
        id: r.id,
        reason: "record-mismatch",
        message: `Pack revision ${r.number} (${r.id}) was changed after it was frozen: its content no longer hashes to its SHA-256.`,
        expected: r.sha256,
        found: r.actual,
      });
    else if (after.sha256 !== r.sha256 || after.revision !== r.number || event.decisionId !== r.decisionId) {
      report({
        id: r.id,
        reason: "record-mismatch",
        message: `Pack revision ${r.id} differs from what event ${event.eventId} recorded.`,
        expected: `revision ${after.revision} ${after.sha256} of ${event.decisionId}`,
        found: `revision ${r.number} ${r.sha256} of ${r.decisionId}`,
      });
    }
  }
  reportDeleted(events.revisions, revisionSha, horizon, report, {
    what: (id) => `Pack revision ${id}`,
    row: "the revision row",
  });

  const present = new Set<string>();
  for (const s of signatures) {
    present.add(s.id);
    const event = events.signatures.get(s.id);
    if (!event) {
      report({
        id: s.id,
        reason: "record-unrecorded",
        message: `The signature of ${s.printedName} (${s.id}) has no signature.create event: it was written outside the app.`,
        expected: "a signature.create event",
        found: "none",
      });
      continue;
    }
    const after = (event.after ?? {}) as Record<string, unknown>;
    const row: Record<string, unknown> = { ...s, signedAt: s.signedAt.toISOString() };
    after.decisionId = event.decisionId; // the event's own column
    const differs: string[] = [...SIGNATURE_FIELDS, "decisionId"].filter(
      (f) => f in after && (after[f] ?? null) !== (row[f] ?? null),
    );
    if (differs.length) {
      report({
        id: s.id,
        reason: "record-mismatch",
        message: `The signature ${s.id} differs from what event ${event.eventId} recorded (${differs.join(", ")}).`,
        expected: differs.map((f) => `${f}=${JSON.stringify(after[f])}`).join(" "),
        found: differs.map((f) => `${f}=${JSON.stringify(row[f])}`).join(" "),
      });
    } else if ("confirmedBy" in after && enrolmentProblem(s, event.eventId, events.confirmations)) {
      report({
        id: s.id,
        reason: "record-mismatch",
        message: `The signature of ${s.printedName} (${s.id}) ${enrolmentProblem(s, event.eventId, events.confirmations)}`,
        expected: "a user.confirm_signer event by a second person, before the signature, naming its confirmer",
        found: `enrolled by ${s.enrolledBy ?? "none"}, confirmed by ${s.confirmedBy ?? "none"}`,
      });
    } else if (revisionSha.get(s.packRevisionId) !== s.revisionSha256) {
      report({
        id: s.id,
        reason: "record-mismatch",
        message: `The signature ${s.id} names hash ${s.revisionSha256}, which is not its revision's.`,
        expected: s.revisionSha256,
        found: revisionSha.get(s.packRevisionId) ?? "no revision",
      });
    }
  }
  reportDeleted(events.signatures, present, horizon, report, {
    what: (id) => `The signature ${id}`,
    row: "the signature row",
  });
  return problems;
}

/**
 * Four-eyes enrolment, checked through the chain: a signature made since it was recorded must
 * name a confirmer, and the signer's last user.confirm_signer event before the signature must
 * name the same granter and confirmer, two different people (or the operator).
 */
function enrolmentProblem(
  s: { signerId: string; enrolledBy: string | null; confirmedBy: string | null },
  signatureEventId: string,
  confirmations: Map<string, RecordEvent[]>,
): string | null {
  if (!s.confirmedBy) return "was made by an account whose enrolment no second person confirmed.";
  const before = (confirmations.get(s.signerId) ?? []).filter((e) => BigInt(e.eventId) < BigInt(signatureEventId));
  const last = before.at(-1);
  // The operator's own accounts (`verdict user create`, the demo seed) are confirmed as they are made.
  if (!last && s.confirmedBy === OPERATOR_LABEL && s.enrolledBy === OPERATOR_LABEL) return null;
  if (!last) return `states "confirmed by ${s.confirmedBy}", but no confirmation of the signer is recorded before it.`;
  const after = (last.after ?? {}) as {
    grantedById?: string | null;
    confirmedById?: string | null;
    grantedBy?: string;
    confirmedBy?: string;
  };
  if (after.confirmedBy !== s.confirmedBy || after.grantedBy !== s.enrolledBy)
    return `states "enrolled by ${s.enrolledBy}, confirmed by ${s.confirmedBy}", but event ${last.eventId} recorded "enrolled by ${after.grantedBy}, confirmed by ${after.confirmedBy}".`;
  if (after.confirmedById != null && after.confirmedById === after.grantedById)
    return `was confirmed (event ${last.eventId}) by the same person who granted the role.`;
  return null;
}
