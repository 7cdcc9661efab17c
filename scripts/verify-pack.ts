/**
 * Offline check of an auditor bundle (GET /api/v1/decisions/:id/audit-bundle), with no database
 * and nothing of Verdict's code: canonical JSON and SHA-256 are re-implemented here on purpose,
 * so the check does not trust the application it audits. Run:
 *
 *   npx tsx scripts/verify-pack.ts verdict-audit-<decision>.json
 *
 * It checks that (1) every pack revision's SHA-256 is the hash of its canonical JSON, and the
 * JSON is canonical; (2) every signature names the hash of the revision it is linked to (§11.70)
 * and has its signature.create audit event; (3) every audit event of the decision hashes to its
 * stored hash from its previous hash and content; (4) the chain links from the decision's first
 * event to the head are unbroken and contain every event of the decision; (5) an approved
 * decision has a quorum of distinct approvers for one candidate on one revision.
 * Exit code 0 when every check passes, 1 otherwise.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function canonical(value: Json): string {
  if (value === null) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("non-finite number");
    return Object.is(value, -0) ? "0" : JSON.stringify(value);
  }
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`).join(",")}}`;
}

const sha256 = (...parts: string[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p, "utf8");
  return h.digest("hex");
};

interface Bundle {
  format: string;
  decision: { id: string; status: string; quorum: number };
  revisions: Array<{ id: string; number: number; sha256: string; canonicalJson: string; supersededAt: string | null }>;
  signatures: Array<{ id: string; packRevisionId: string; revisionSha256: string; signerId: string; printedName: string; meaning: string; candidateId: string | null; reason: string; signedAt: string }>;
  audit: {
    genesisHash: string;
    events: Array<{ id: string; actorId: string | null; actorRoles: string[]; action: string; entityType: string; entityId: string; decisionId: string | null; before: Json; after: Json; ip: string | null; userAgent: string | null; createdAt: string; prevHash: string; hash: string }>;
    links: Array<{ id: string; prevHash: string; hash: string }>;
  };
}

export interface Report {
  ok: boolean;
  problems: string[];
  notes: string[];
}

export function verifyBundle(bundle: Bundle): Report {
  const problems: string[] = [];
  const notes: string[] = [];
  if (bundle.format !== "verdict.auditor-bundle/1") problems.push(`unknown bundle format ${bundle.format}`);

  // (1) revisions
  const revisions = new Map(bundle.revisions.map((r) => [r.id, r]));
  bundle.revisions.forEach((r, i) => {
    if (sha256(r.canonicalJson) !== r.sha256) problems.push(`revision ${r.number}: SHA-256 of its canonical JSON is not ${r.sha256}`);
    try {
      if (canonical(JSON.parse(r.canonicalJson) as Json) !== r.canonicalJson) problems.push(`revision ${r.number}: its JSON is not in canonical form`);
    } catch {
      problems.push(`revision ${r.number}: its JSON does not parse`);
    }
    if (r.number !== i + 1) problems.push(`revision numbers are not consecutive at ${r.number}`);
    if (i < bundle.revisions.length - 1 && !r.supersededAt) problems.push(`revision ${r.number} is followed by a newer one but not marked superseded`);
  });

  // (3) event content hashes, (4) links
  const events = bundle.audit.events;
  for (const e of events) {
    const payload = canonical({ actorId: e.actorId, actorRoles: e.actorRoles, action: e.action, entityType: e.entityType, entityId: e.entityId, decisionId: e.decisionId, before: e.before, after: e.after, ip: e.ip, userAgent: e.userAgent, createdAt: e.createdAt });
    if (sha256(e.prevHash, payload) !== e.hash) problems.push(`audit event ${e.id} (${e.action}): content does not match its hash`);
  }
  const links = bundle.audit.links;
  links.forEach((l, i) => {
    if (i > 0 && l.prevHash !== links[i - 1]!.hash) problems.push(`audit chain broken between events ${links[i - 1]!.id} and ${l.id}`);
  });
  if (links[0]?.id === "1" && links[0].prevHash !== bundle.audit.genesisHash) problems.push("the first audit event does not start from the genesis hash");
  const linkById = new Map(links.map((l) => [l.id, l]));
  for (const e of events) {
    const l = linkById.get(e.id);
    if (!l || l.hash !== e.hash || l.prevHash !== e.prevHash) problems.push(`audit event ${e.id} is not in the exported chain links`);
  }
  if (links.length) notes.push(`audit chain head: event ${links[links.length - 1]!.id}, hash ${links[links.length - 1]!.hash} (compare with the live system)`);

  // (2) signatures ↔ revisions ↔ audit events
  const created = new Map<string, Json>();
  for (const e of events) if (e.action === "signature.create" && e.after && typeof e.after === "object" && !Array.isArray(e.after)) created.set(e.entityId, e.after);
  const latest = bundle.revisions[bundle.revisions.length - 1];
  for (const s of bundle.signatures) {
    const r = revisions.get(s.packRevisionId);
    if (!r) problems.push(`signature ${s.id} (${s.printedName}) points to a revision not in the bundle`);
    else if (r.sha256 !== s.revisionSha256) problems.push(`signature ${s.id} (${s.printedName}) carries hash ${s.revisionSha256}, but its revision ${r.number} hashes to ${r.sha256}`);
    else if (r !== latest) notes.push(`signature of ${s.printedName} (${s.meaning}) is on superseded revision ${r.number}`);
    const after = created.get(s.id) as Record<string, Json> | undefined;
    if (!after) problems.push(`signature ${s.id} (${s.printedName}) has no signature.create audit event`);
    else if (after.revisionSha256 !== s.revisionSha256 || after.signerId !== s.signerId || after.meaning !== s.meaning || (after.candidateId ?? null) !== s.candidateId || after.reason !== s.reason) {
      problems.push(`signature ${s.id} (${s.printedName}) differs from what its audit event recorded`);
    }
  }

  // (5) quorum
  if (bundle.decision.status === "APPROVED") {
    const tally = new Map<string, Set<string>>();
    for (const s of bundle.signatures) if (s.meaning === "APPROVAL") tally.set(`${s.packRevisionId}:${s.candidateId}`, (tally.get(`${s.packRevisionId}:${s.candidateId}`) ?? new Set()).add(s.signerId));
    const best = Math.max(0, ...[...tally.values()].map((v) => v.size));
    if (best < bundle.decision.quorum) problems.push(`the decision is approved but no candidate has ${bundle.decision.quorum} distinct approvers on one revision (best: ${best})`);
  }
  return { ok: problems.length === 0, problems, notes };
}

function main() {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: tsx scripts/verify-pack.ts <auditor-bundle.json>\n");
    process.exit(2);
  }
  const bundle = JSON.parse(readFileSync(file, "utf8")) as Bundle;
  const report = verifyBundle(bundle);
  process.stdout.write(`Decision ${bundle.decision.id} (${bundle.decision.status}): ${bundle.revisions.length} revisions, ${bundle.signatures.length} signatures, ${bundle.audit.events.length} audit events, ${bundle.audit.links.length} chain links\n`);
  for (const n of report.notes) process.stdout.write(`  note: ${n}\n`);
  for (const p of report.problems) process.stdout.write(`  PROBLEM: ${p}\n`);
  process.stdout.write(report.ok ? "OK: every check passed.\n" : `FAILED: ${report.problems.length} problem(s).\n`);
  process.exit(report.ok ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
