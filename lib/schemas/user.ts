import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";

const roles = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(ROLES)).min(1, "Give the user at least one role."));

export const createUserSchema = z.object({
  name: z.string().trim().min(2, "Enter the person's printed name (it appears on their signatures).").max(200),
  email: z.string().trim().toLowerCase().email("Enter a valid email address."),
  password: z.string().min(12, "Use at least 12 characters.").max(1024),
  roles,
});

export const updateRolesSchema = z.object({
  userId: z.string().min(1),
  roles,
});

export type CreateUserInput = z.infer<typeof createUserSchema>;
