/**
 * Offline check of an auditor bundle (GET /api/v1/decisions/:id/audit-bundle) or of an exported
 * PDF pack, with no database and nothing of Verdict's code: canonical JSON and SHA-256 are
 * re-implemented here on purpose, so the check does not trust the application it audits. Run:
 *
 *   npx tsx scripts/verify-pack.ts verdict-audit-<decision>.json
 *   npx tsx scripts/verify-pack.ts verdict-pack-<decision>.pdf
 *
 * A PDF: its signature's ByteRange must cover the whole file but the signature itself, the
 * PKCS#7's message digest must be the SHA-256 of those bytes, and the signer's certificate must
 * verify the signed attributes (verifyPdf). A changed byte anywhere breaks one of the three.
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
import forge from "node-forge";
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
  signatures: Array<{
    id: string;
    packRevisionId: string;
    revisionSha256: string;
    signerId: string;
    printedName: string;
    signerEmail?: string | null;
    meaning: string;
    candidateId: string | null;
    reason: string;
    signedAt: string;
  }>;
  audit: {
    genesisHash: string;
    events: Array<{
      id: string;
      actorId: string | null;
      actorRoles: string[];
      action: string;
      entityType: string;
      entityId: string;
      decisionId: string | null;
      before: Json;
      after: Json;
      ip: string | null;
      userAgent: string | null;
      createdAt: string;
      prevHash: string;
      hash: string;
    }>;
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
  checkRevisions(bundle, problems);
  checkAuditChain(bundle, problems, notes);
  checkSignatures(bundle, problems, notes);
  checkQuorum(bundle, problems);
  return { ok: problems.length === 0, problems, notes };
}

/** (1) Each revision hashes to its SHA-256, is canonical JSON, and is numbered and superseded in order. */
function checkRevisions(bundle: Bundle, problems: string[]) {
  bundle.revisions.forEach((r, i) => {
    if (sha256(r.canonicalJson) !== r.sha256)
      problems.push(`revision ${r.number}: SHA-256 of its canonical JSON is not ${r.sha256}`);
    try {
      if (canonical(JSON.parse(r.canonicalJson) as Json) !== r.canonicalJson)
        problems.push(`revision ${r.number}: its JSON is not in canonical form`);
    } catch {
      problems.push(`revision ${r.number}: its JSON does not parse`);
    }
    if (r.number !== i + 1) problems.push(`revision numbers are not consecutive at ${r.number}`);
    if (i < bundle.revisions.length - 1 && !r.supersededAt)
      problems.push(`revision ${r.number} is followed by a newer one but not marked superseded`);
  });
}

/** (3) Each audit event's content matches its hash; (4) the links chain from genesis and hold every event. */
function checkAuditChain(bundle: Bundle, problems: string[], notes: string[]) {
  const events = bundle.audit.events;
  for (const e of events) {
    const payload = canonical({
      actorId: e.actorId,
      actorRoles: e.actorRoles,
      action: e.action,
      entityType: e.entityType,
      entityId: e.entityId,
      decisionId: e.decisionId,
      before: e.before,
      after: e.after,
      ip: e.ip,
      userAgent: e.userAgent,
      createdAt: e.createdAt,
    });
    if (sha256(e.prevHash, payload) !== e.hash)
      problems.push(`audit event ${e.id} (${e.action}): content does not match its hash`);
  }
  const links = bundle.audit.links;
  links.forEach((l, i) => {
    if (i > 0 && l.prevHash !== links[i - 1]!.hash)
      problems.push(`audit chain broken between events ${links[i - 1]!.id} and ${l.id}`);
  });
  if (links[0]?.id === "1" && links[0].prevHash !== bundle.audit.genesisHash)
    problems.push("the first audit event does not start from the genesis hash");
  const linkById = new Map(links.map((l) => [l.id, l]));
  for (const e of events) {
    const l = linkById.get(e.id);
    if (!l || l.hash !== e.hash || l.prevHash !== e.prevHash)
      problems.push(`audit event ${e.id} is not in the exported chain links`);
  }
  if (links.length)
    notes.push(
      `audit chain head: event ${links[links.length - 1]!.id}, hash ${links[links.length - 1]!.hash} (compare with the live system)`,
    );
}

/** (2) Each signature binds to its revision's hash and matches its signature.create audit event. */
function checkSignatures(bundle: Bundle, problems: string[], notes: string[]) {
  const events = bundle.audit.events;
  const revisions = new Map(bundle.revisions.map((r) => [r.id, r]));
  const created = new Map<string, Json>();
  for (const e of events)
    if (e.action === "signature.create" && e.after && typeof e.after === "object" && !Array.isArray(e.after))
      created.set(e.entityId, e.after);
  const latest = bundle.revisions[bundle.revisions.length - 1];
  for (const s of bundle.signatures) {
    const r = revisions.get(s.packRevisionId);
    if (!r) problems.push(`signature ${s.id} (${s.printedName}) points to a revision not in the bundle`);
    else if (r.sha256 !== s.revisionSha256)
      problems.push(
        `signature ${s.id} (${s.printedName}) carries hash ${s.revisionSha256}, but its revision ${r.number} hashes to ${r.sha256}`,
      );
    else if (r !== latest)
      notes.push(`signature of ${s.printedName} (${s.meaning}) is on superseded revision ${r.number}`);
    const after = created.get(s.id) as Record<string, Json> | undefined;
    if (!after) problems.push(`signature ${s.id} (${s.printedName}) has no signature.create audit event`);
    else if (
      after.revisionSha256 !== s.revisionSha256 ||
      after.signerId !== s.signerId ||
      after.meaning !== s.meaning ||
      (after.candidateId ?? null) !== s.candidateId ||
      after.reason !== s.reason ||
      ("signerEmail" in after && after.signerEmail !== (s.signerEmail ?? null))
    ) {
      problems.push(`signature ${s.id} (${s.printedName}) differs from what its audit event recorded`);
    }
  }
}

/** (5) An approved decision has the quorum of distinct approvers for one candidate on one revision. */
function checkQuorum(bundle: Bundle, problems: string[]) {
  if (bundle.decision.status === "APPROVED") {
    const tally = new Map<string, Set<string>>();
    for (const s of bundle.signatures)
      if (s.meaning === "APPROVAL")
        tally.set(
          `${s.packRevisionId}:${s.candidateId}`,
          (tally.get(`${s.packRevisionId}:${s.candidateId}`) ?? new Set()).add(s.signerId),
        );
    const best = Math.max(0, ...[...tally.values()].map((v) => v.size));
    if (best < bundle.decision.quorum)
      problems.push(
        `the decision is approved but no candidate has ${bundle.decision.quorum} distinct approvers on one revision (best: ${best})`,
      );
  }
}

/** The signature dictionary's ByteRange and Contents of the last signature in the file. */
function lastSignature(pdf: Buffer): { range: number[]; contentsHex: string; contentsAt: number } | null {
  const text = pdf.toString("latin1");
  const at = text.lastIndexOf("/ByteRange");
  if (at < 0) return null;
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(at, at + 200));
  if (!range) return null;
  const numbers = range.slice(1, 5).map(Number);
  const gapStart = numbers[1]!;
  const contents = /^<([0-9A-Fa-f]*)>/.exec(text.slice(gapStart, numbers[2]));
  return { range: numbers, contentsHex: contents?.[1] ?? "", contentsAt: gapStart };
}

export function verifyPdf(pdf: Buffer): Report {
  const problems: string[] = [];
  const notes: string[] = [];
  const sig = lastSignature(pdf);
  if (!sig) return { ok: false, problems: ["the PDF carries no signature (no /ByteRange)"], notes };
  const [start, firstLength, secondStart, secondLength] = sig.range as [number, number, number, number];
  // The signed bytes are everything but the signature's own hex string, up to the file's end.
  if (start !== 0 || secondStart + secondLength !== pdf.length || secondStart <= firstLength) {
    problems.push(
      `the signature covers bytes ${start}–${firstLength} and ${secondStart}–${secondStart + secondLength}, not the whole file of ${pdf.length} bytes (something was added or cut)`,
    );
  }
  if (!sig.contentsHex || sig.contentsAt + sig.contentsHex.length + 2 !== secondStart)
    problems.push("the signature's byte range does not leave out exactly its /Contents");
  if (problems.length) return { ok: false, problems, notes };
  const signed = Buffer.concat([pdf.subarray(0, firstLength), pdf.subarray(secondStart, secondStart + secondLength)]);
  try {
    const der = Buffer.from(sig.contentsHex, "hex").toString("binary");
    const asn1 = forge.asn1.fromDer(der, { parseAllBytes: false } as unknown as boolean);
    // What follows the PKCS#7 in its placeholder must still be the zeros it was padded with.
    const used = forge.asn1.toDer(asn1).length() * 2;
    if (!/^0*$/.test(sig.contentsHex.slice(used))) problems.push("the signature's padding was changed after sealing");
    const message = forge.pkcs7.messageFromAsn1(asn1) as unknown as {
      certificates: forge.pki.Certificate[];
      rawCapture: { authenticatedAttributes?: forge.asn1.Asn1[]; signature: string; digestAlgorithm: string };
    };
    const { authenticatedAttributes: attributes, signature } = message.rawCapture;
    if (!attributes) throw new Error("the PKCS#7 has no signed attributes");
    const digestAttribute = attributes.find(
      (a) => forge.asn1.derToOid((a.value as forge.asn1.Asn1[])[0]!.value as string) === forge.pki.oids.messageDigest!,
    );
    const stated = digestAttribute
      ? Buffer.from(
          ((digestAttribute.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!.value as string,
          "binary",
        ).toString("hex")
      : null;
    const actual = createHash("sha256").update(signed).digest("hex");
    if (stated !== actual)
      problems.push(
        `the PDF was changed after it was sealed: its bytes hash to ${actual}, the signature states ${stated ?? "no digest"}`,
      );
    // The signer signed the DER of the attributes as a SET.
    const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes);
    const md = forge.md.sha256.create().update(forge.asn1.toDer(set).getBytes());
    const cert = message.certificates[0];
    if (!cert) problems.push("the signature carries no certificate");
    else {
      const valid = (cert.publicKey as forge.pki.rsa.PublicKey).verify(md.digest().bytes(), signature);
      if (!valid)
        problems.push(
          "the signature does not verify with the certificate it carries (the signed attributes were altered)",
        );
      const cn = (cert.subject.getField("CN") as { value?: string } | null)?.value ?? "unnamed";
      const selfSigned = cert.subject.hash === cert.issuer.hash;
      notes.push(
        `sealed by ${cn}${selfSigned ? " (a self-signed certificate: it shows tampering, not who the operator is)" : `, issued by ${(cert.issuer.getField("CN") as { value?: string } | null)?.value ?? "unnamed"}`}`,
      );
    }
  } catch (error) {
    problems.push(`the signature cannot be read: ${(error as Error).message}`);
  }
  return { ok: problems.length === 0, problems, notes };
}

function main() {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: tsx scripts/verify-pack.ts <auditor-bundle.json | evidence-pack.pdf>\n");
    process.exit(2);
  }
  const raw = readFileSync(file);
  if (raw.subarray(0, 5).toString("latin1") === "%PDF-") {
    const report = verifyPdf(raw);
    process.stdout.write(`PDF ${path.basename(file)}: ${raw.length} bytes\n`);
    for (const n of report.notes) process.stdout.write(`  note: ${n}\n`);
    for (const p of report.problems) process.stdout.write(`  PROBLEM: ${p}\n`);
    process.stdout.write(
      report.ok
        ? "OK: the seal covers the whole file and matches it.\n"
        : `FAILED: ${report.problems.length} problem(s).\n`,
    );
    process.exit(report.ok ? 0 : 1);
  }
  const bundle = JSON.parse(raw.toString("utf8")) as Bundle;
  const report = verifyBundle(bundle);
  process.stdout.write(
    `Decision ${bundle.decision.id} (${bundle.decision.status}): ${bundle.revisions.length} revisions, ${bundle.signatures.length} signatures, ${bundle.audit.events.length} audit events, ${bundle.audit.links.length} chain links\n`,
  );
  for (const n of report.notes) process.stdout.write(`  note: ${n}\n`);
  for (const p of report.problems) process.stdout.write(`  PROBLEM: ${p}\n`);
  process.stdout.write(report.ok ? "OK: every check passed.\n" : `FAILED: ${report.problems.length} problem(s).\n`);
  process.exit(report.ok ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
