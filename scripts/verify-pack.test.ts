import { describe, expect, it } from "vitest";
import { getAuditorBundle } from "@/lib/server/signoff/auditor-bundle";
import { signPack } from "@/lib/server/signoff/sign-pack";
import { submitForReview } from "@/lib/server/signoff/submit-for-review";
import { getReviewState } from "@/lib/server/signoff/review-state";
import {
  addLeaderboardScore,
  makeSignoffDecision,
  makeSigner,
  PASSWORD,
} from "@/lib/server/signoff/fixtures.test-helpers";
import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { exportPackPdf } from "@/lib/server/pack/export";
import { makeCompleteDecision } from "@/test/factories";
import { verifyBundle, verifyPdf } from "./verify-pack";

const root = path.resolve(import.meta.dirname, "..");

/** An operator's PKCS#12 (a certificate named `cn`, self-issued here), protected by `passphrase`. */
function operatorP12(cn: string, passphrase: string): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = "01";
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: "commonName", value: cn }]);
  cert.setIssuer([{ name: "commonName", value: cn }]);
  const key = forge.pki.privateKeyFromPem(privateKey);
  cert.sign(key, forge.md.sha256.create());
  return Buffer.from(
    forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: "3des" })).getBytes(),
    "binary",
  );
}

async function approvedBundle() {
  const analyst = await makeSigner(["ANALYST"]);
  const { decisionId, goodId } = await makeSignoffDecision(analyst);
  const r1 = await submitForReview(analyst, decisionId);
  const a1 = await makeSigner(["APPROVER"], "Avery");
  const a2 = await makeSigner(["APPROVER"], "Blair");
  const approve = (sha: string) => ({
    meaning: "APPROVAL" as const,
    password: PASSWORD,
    revisionSha256: sha,
    candidateId: goodId,
    reason: "meets every gate",
  });
  await signPack(a1, decisionId, { ...approve(r1.sha256), email: a1.email });
  await addLeaderboardScore(decisionId, goodId, analyst.id); // supersedes revision 1
  await expect(signPack(a2, decisionId, { ...approve(r1.sha256), email: a2.email })).rejects.toMatchObject({
    code: "CONFLICT",
  });
  const r2 = (await getReviewState(a2, decisionId)).latestRevision!.sha256;
  await signPack(a1, decisionId, { ...approve(r2), email: a1.email });
  await signPack(a2, decisionId, { ...approve(r2), email: a2.email });
  // Through JSON, as the auditor receives it.
  return JSON.parse(JSON.stringify(await getAuditorBundle(a1, decisionId))) as Parameters<typeof verifyBundle>[0];
}

describe("offline pack verification (scripts/verify-pack.ts)", () => {
  it("passes a genuine bundle, noting the signature on the superseded revision", async () => {
    const bundle = await approvedBundle();
    const report = verifyBundle(bundle);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(bundle.revisions).toHaveLength(2);
    expect(report.notes.some((n) => /superseded revision 1/.test(n))).toBe(true);
  });

  it("finds an altered revision, a signature moved to another revision, an edited event and a missing link", async () => {
    const bundle = await approvedBundle();
    const altered = structuredClone(bundle);
    altered.revisions[1]!.canonicalJson = altered.revisions[1]!.canonicalJson.replace('"quorum":2', '"quorum":1');
    expect(verifyBundle(altered).problems.join("\n")).toMatch(/revision 2: SHA-256/);

    const moved = structuredClone(bundle);
    moved.signatures[0]!.packRevisionId = moved.revisions[1]!.id;
    expect(verifyBundle(moved).problems.join("\n")).toMatch(/carries hash/);

    const edited = structuredClone(bundle);
    const event = edited.audit.events.find((e) => e.action === "signature.create")!;
    (event.after as Record<string, unknown>).reason = "forged";
    expect(verifyBundle(edited).problems.join("\n")).toMatch(/content does not match its hash/);

    const cut = structuredClone(bundle);
    cut.audit.links.splice(1, 1);
    expect(verifyBundle(cut).problems.join("\n")).toMatch(/chain broken/);
  });
});

describe("the sealed PDF (scripts/verify-pack.ts on a PDF)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "verdict-seal-"));
  const run = (file: string) =>
    spawnSync(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/verify-pack.ts"), file],
      { cwd: root, encoding: "utf8" },
    );

  it("is signed over the whole file by a generated self-signed key kept in the data folder; a changed byte is reported as broken", async () => {
    process.env.VERDICT_PDF_SIGNING_DIR = dir;
    delete process.env.VERDICT_PDF_SIGNING_P12;
    const analyst = await makeSigner(["ANALYST"]);
    const { decisionId } = await makeCompleteDecision(analyst);
    const { bytes } = await exportPackPdf(analyst, decisionId);
    const pdf = Buffer.from(bytes);
    expect(existsSync(path.join(dir, "pdf-signing-self-signed.p12"))).toBe(true);
    const report = verifyPdf(pdf);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.notes.join()).toMatch(/sealed by Verdict self-signed PDF seal .*self-signed certificate/);
    expect(pdf.toString("latin1")).toContain("/adbe.pkcs7.detached");

    // One byte changed anywhere: at the start, in the middle, in the signature's own padding, at the end.
    const padding = pdf.toString("latin1").lastIndexOf("0000>") + 1;
    for (const at of [20, Math.floor(pdf.length / 2), padding, pdf.length - 10]) {
      const changed = Buffer.from(pdf);
      changed[at] = changed[at]! ^ 0x01;
      const broken = verifyPdf(changed);
      expect(broken.ok, `byte ${at}`).toBe(false);
    }
    // Bytes appended after the seal (an incremental update) are outside the signed range.
    const appended = Buffer.concat([pdf, Buffer.from("\n% appended\n")]);
    expect(verifyPdf(appended).problems.join()).toMatch(/not the whole file/);

    // The script, as an auditor runs it: exit 0 for the genuine file, 1 for the changed one.
    const good = path.join(dir, "pack.pdf");
    const bad = path.join(dir, "pack-changed.pdf");
    writeFileSync(good, pdf);
    const changed = Buffer.from(pdf);
    changed[Math.floor(pdf.length / 3)] = changed[Math.floor(pdf.length / 3)]! ^ 0x20;
    writeFileSync(bad, changed);
    const ok = run(good);
    expect(ok.stdout).toMatch(/OK: the seal covers the whole file/);
    expect(ok.status).toBe(0);
    const failed = run(bad);
    expect(failed.stdout).toMatch(/PROBLEM: the PDF was changed after it was sealed|PROBLEM: the signature/);
    expect(failed.status).toBe(1);
  }, 120_000);

  it("uses the operator's PKCS#12 when configured, and says clearly when it cannot be read", async () => {
    const analyst = await makeSigner(["ANALYST"]);
    const { decisionId } = await makeCompleteDecision(analyst);
    // A key file the operator configures, with its passphrase.
    const operatorKey = path.join(dir, "operator.p12");
    writeFileSync(operatorKey, operatorP12("Acme Procurement QA", "operator-secret"));
    process.env.VERDICT_PDF_SIGNING_P12 = operatorKey;
    process.env.VERDICT_PDF_SIGNING_PASSPHRASE = "operator-secret";
    const { bytes } = await exportPackPdf(analyst, decisionId);
    const report = verifyPdf(Buffer.from(bytes));
    expect(report.ok).toBe(true);
    expect(report.notes.join()).toMatch(/sealed by Acme Procurement QA/);

    process.env.VERDICT_PDF_SIGNING_P12 = path.join(dir, "missing.p12");
    await expect(exportPackPdf(analyst, decisionId)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringMatching(/VERDICT_PDF_SIGNING_P12=.*missing\.p12 cannot be read/),
    });
    process.env.VERDICT_PDF_SIGNING_P12 = operatorKey;
    process.env.VERDICT_PDF_SIGNING_PASSPHRASE = "wrong";
    await expect(exportPackPdf(analyst, decisionId)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringMatching(/does not open with the configured passphrase/),
    });
    delete process.env.VERDICT_PDF_SIGNING_P12;
    delete process.env.VERDICT_PDF_SIGNING_PASSPHRASE;
  }, 120_000);
});
