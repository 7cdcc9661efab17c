import "server-only";
import { env } from "@/lib/env";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { AppError } from "../errors";

/**
 * Endpoint API keys at rest: AES-256-GCM (node:crypto) under a 32-byte key from
 * VERDICT_SECRETS_KEY (64 hex digits or base64), stored as base64(iv ‖ tag ‖ ciphertext). A key is
 * decrypted only in the worker that calls the endpoint; pages, the API, logs and the audit trail
 * see only its fingerprint.
 */
function secretsKey(): Buffer {
  const raw = env().VERDICT_SECRETS_KEY;
  if (!raw)
    throw new AppError(
      "VALIDATION",
      "apiKey: the server cannot store API keys: set VERDICT_SECRETS_KEY (32 random bytes, hex or base64) in its environment.",
    );
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32)
    throw new AppError(
      "VALIDATION",
      "apiKey: VERDICT_SECRETS_KEY must be 32 bytes (64 hex digits or 44 base64 characters).",
    );
  return key;
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretsKey(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

export function decryptSecret(stored: string): string {
  const bytes = Buffer.from(stored, "base64");
  const decipher = createDecipheriv("aes-256-gcm", secretsKey(), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}

/** Names a key without revealing it: the first 16 hex digits of its SHA-256. */
export const secretFingerprint = (plain: string) =>
  `sha256:${createHash("sha256").update(plain, "utf8").digest("hex").slice(0, 16)}`;
