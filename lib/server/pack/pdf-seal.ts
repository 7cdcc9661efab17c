import "server-only";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import forge from "node-forge";
import type { PDFDocument } from "pdf-lib";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { P12Signer } from "@signpdf/signer-p12";
import signpdf from "@signpdf/signpdf";
import { env } from "@/lib/env";
import { AppError } from "../errors";

/**
 * The exported PDF is sealed with a detached PKCS#7 signature (adbe.pkcs7.detached, as PAdES
 * readers check it) over the whole file but the signature itself, so a PDF reader — and
 * scripts/verify-pack.ts offline — shows any change made after export.
 *
 * The key: the operator's PKCS#12 file (VERDICT_PDF_SIGNING_P12, its passphrase in
 * VERDICT_PDF_SIGNING_PASSPHRASE). Without one — the demo, or a production instance whose operator
 * has not configured one — Verdict generates a self-signed certificate once and keeps it in the
 * data folder (VERDICT_PDF_SIGNING_DIR, default ./data): the seal still shows tampering, and the
 * PDF says the certificate is self-signed, so nobody mistakes it for the company's own.
 */
export interface SealingKey {
  p12: Buffer;
  passphrase: string;
  origin: "configured" | "self-signed";
  subject: string;
}

let cached: { key: SealingKey; source: string } | undefined;

export function sealingKey(): SealingKey {
  const { VERDICT_PDF_SIGNING_P12: configured, VERDICT_PDF_SIGNING_PASSPHRASE: passphrase = "" } = env();
  // Read once per setting (in memory only; a changed passphrase is another setting).
  const source = configured ? `configured:${configured}:${passphrase}` : `generated:${generatedPath()}`;
  if (cached?.source === source) return cached.key;
  const key = configured ? configuredKey(configured, passphrase) : generatedKey(generatedPath());
  cached = { key, source };
  return key;
}

function configuredKey(file: string, passphrase: string): SealingKey {
  let p12: Buffer;
  try {
    p12 = readFileSync(/*turbopackIgnore: true*/ file);
  } catch (error) {
    throw new AppError(
      "UNAVAILABLE",
      `The PDF signing key VERDICT_PDF_SIGNING_P12=${file} cannot be read (${(error as Error).message}): the PDF export needs it to seal the pack.`,
    );
  }
  return { p12, passphrase, origin: "configured", subject: subjectOf(p12, passphrase, file) };
}

function generatedPath() {
  return path.join(env().VERDICT_PDF_SIGNING_DIR ?? path.join(process.cwd(), "data"), "pdf-signing-self-signed.p12");
}

/** Created once per data folder; a second process racing to create it takes the first one's. */
function generatedKey(file: string): SealingKey {
  if (!existsSync(/*turbopackIgnore: true*/ file)) {
    mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(/*turbopackIgnore: true*/ tmp, selfSignedP12(), { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(tmp);
    }
  }
  const p12 = readFileSync(/*turbopackIgnore: true*/ file);
  return { p12, passphrase: "", origin: "self-signed", subject: subjectOf(p12, "", file) };
}

function selfSignedP12(): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const name = [
    { name: "commonName", value: `Verdict self-signed PDF seal (${hostname()})` },
    { name: "organizationName", value: "Verdict (self-signed, not an operator certificate)" },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
  ]);
  const key = forge.pki.privateKeyFromPem(privateKey);
  cert.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], "", { algorithm: "3des" });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
}

function subjectOf(p12: Buffer, passphrase: string, file: string): string {
  try {
    const parsed = forge.pkcs12.pkcs12FromAsn1(
      forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary"))),
      passphrase,
    );
    const bag = parsed.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!]?.[0];
    const cn = bag?.cert?.subject.getField("CN") as { value?: string } | null | undefined;
    return cn?.value ?? "unnamed certificate";
  } catch (error) {
    throw new AppError(
      "UNAVAILABLE",
      `The PDF signing key ${file} does not open with the configured passphrase (VERDICT_PDF_SIGNING_PASSPHRASE): ${(error as Error).message}`,
    );
  }
}

/** One sentence for the PDF's first page: who seals it, and whether that is an operator's certificate. */
export function sealStatement(key: SealingKey): string {
  return key.origin === "configured"
    ? `This PDF is sealed with a digital signature by ${key.subject}: a PDF reader shows any change made to it after export.`
    : `This PDF is sealed with a digital signature by a self-signed certificate this Verdict instance generated (${key.subject}): a PDF reader shows any change made after export, but the certificate is not one your organisation issued — the operator sets VERDICT_PDF_SIGNING_P12 for that.`;
}

/** Saves the document with a signature placeholder, then signs the bytes. */
export async function saveSealed(doc: PDFDocument, key: SealingKey, title: string): Promise<Uint8Array> {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: `Verdict evidence pack: ${title}`,
    contactInfo: "",
    name: key.subject,
    location: "Verdict",
    appName: "Verdict",
  });
  const unsigned = await doc.save({ useObjectStreams: false });
  const signed = await signpdf.sign(Buffer.from(unsigned), new P12Signer(key.p12, { passphrase: key.passphrase }));
  return new Uint8Array(signed);
}
