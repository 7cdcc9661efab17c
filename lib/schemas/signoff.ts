import { z } from "zod";

// Shared by the signing dialog, the comment forms and the JSON API. FormData values are strings:
// an empty optional field means "not set".
const optionalText = (max: number) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().max(max).optional());

export const signSchema = z.object({
  meaning: z.enum(["REVIEW", "APPROVAL", "REJECTION"], { error: "Choose what your signature means." }),
  email: z.string().trim().toLowerCase().min(1, "Enter your email to sign.").max(320),
  password: z.string().min(1, "Re-enter your password to sign.").max(1024),
  revisionSha256: z.string().regex(/^[0-9a-f]{64}$/, "The revision hash is missing; reload the page."),
  reason: z.string().trim().min(3, "State the reason for your signature.").max(5000),
  candidateId: optionalText(100),
  waiver: optionalText(5000),
});
export type SignForm = z.infer<typeof signSchema>;

export const commentSchema = z.object({
  body: z.string().trim().min(1, "Write a comment first.").max(10_000),
  stage: z.preprocess(
    (v) => (v === "" || v === undefined || v === "pack" ? null : v),
    z.coerce.number().int().min(1).max(5).nullable(),
  ),
  parentId: optionalText(100),
});

export const transitionSchema = z.object({
  action: z.enum(["submit", "request_changes", "reopen"]),
  reason: optionalText(5000),
});
