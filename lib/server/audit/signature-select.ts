import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * A signature as every reader reads it (SPEC §7, 21 CFR Part 11 §11.50): who signed (printed name,
 * email, id; who enrolled and who confirmed them), what the signature means and for which candidate at which operating point, the
 * reason and any waiver, when, and the revision hash it binds to. One list, so the review page,
 * the exports, the auditor bundle and the records check never disagree on what a signature is.
 */
export const SIGNATURE_SELECT = {
  id: true,
  packRevisionId: true,
  revisionSha256: true,
  signerId: true,
  printedName: true,
  signerEmail: true,
  enrolledBy: true,
  confirmedBy: true,
  meaning: true,
  candidateId: true,
  reason: true,
  waiver: true,
  operatingThreshold: true,
  operatingRule: true,
  signedAt: true,
} as const satisfies Prisma.SignatureSelect;
