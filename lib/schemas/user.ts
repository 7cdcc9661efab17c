import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { cleanPrintedName } from "@/lib/identity/printed-name";

const roles = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.enum(ROLES)).min(1, "Give the user at least one role."),
);

/** The password rule, in one place: invitations, password changes and `verdict user create` all use it. */
export const MIN_PASSWORD_LENGTH = 12;
export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(1024, "Use at most 1024 characters.");

/** Stored clean (lib/identity/printed-name.ts): no invisible characters, single spaces, NFC. */
const printedName = z
  .string()
  .max(1000)
  .transform(cleanPrintedName)
  .pipe(z.string().min(2, "Enter the person's printed name (it appears on their signatures).").max(200));
const email = z.string().trim().toLowerCase().email("Enter a valid email address.").max(320);

export const createUserSchema = z.object({ name: printedName, email, password: passwordSchema, roles });

/** An invitation names the person and their roles; they choose their password on the link. */
export const inviteUserSchema = z.object({ name: printedName, email, roles });

export const acceptInvitationSchema = z
  .object({
    token: z.string().min(1, "The invitation link is incomplete.").max(200),
    password: passwordSchema,
    confirm: z.string().max(1024),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords differ." });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(1024),
    newPassword: passwordSchema,
    confirm: z.string().max(1024),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "The two passwords differ." })
  .refine((v) => v.newPassword !== v.currentPassword, {
    path: ["newPassword"],
    message: "Choose a password different from the current one.",
  });

export const updateRolesSchema = z.object({
  userId: z.string().min(1),
  roles,
});

/** Four-eyes enrolment: the user whose role a second person confirms. */
export const confirmSignerSchema = z.object({ userId: z.string().min(1).max(100) });

/** FormData sends "true"/"false"; the JSON API sends a boolean. */
export const setActiveSchema = z.object({
  userId: z.string().min(1).max(100),
  active: z.preprocess(
    (v) => (v === "true" ? true : v === "false" ? false : v),
    z.boolean({ error: "Say whether the user is active (true or false)." }),
  ),
});

export type CreateUserInput = z.infer<typeof createUserSchema>;
export type InviteUserInput = z.infer<typeof inviteUserSchema>;
