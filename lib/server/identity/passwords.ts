import "server-only";
import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash of a random password no one knows, made with OPTIONS: checking a password against it
 * costs exactly what checking a real one does. Committed rather than computed at start, so the
 * first unknown email is not slower either.
 */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$sty8xgoQrD2eEqBG6exwkA$qZhyPCVWdZHkuCzUUsTCDdGRdZbJQ4D93/+/7I08FMA";

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * Verifies a password. With no stored hash (an unknown email, an inactive account) it checks the
 * password against DUMMY_HASH — the same work, the same time — and answers false.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
