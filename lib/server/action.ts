import "server-only";
import { z } from "zod";
import { can, type Permission } from "@/lib/auth/permissions";
import { AppError, busyError } from "./errors";
import { currentSession, type Actor } from "./session";
import { requestInfo } from "./request-info";
import type { RequestInfo } from "./audit/write";

import type { ActionState } from "@/lib/action-state";

export type { ActionState };

export interface ActionContext {
  actor: Actor;
  request: RequestInfo;
  /** The session's id (a password change keeps this session and ends the others). */
  sid: string;
}

/**
 * The one way to write a mutation: authenticate → parse with the shared schema → `can()` →
 * domain function. The domain function checks the permission again itself (defence in depth),
 * writes its audit event in its transaction and may throw AppError, which becomes the message.
 */
export function defineAction<S extends z.ZodType>(options: {
  schema: S;
  permission: Permission;
  run: (input: z.infer<S>, context: ActionContext) => Promise<ActionState | void>;
}) {
  return async (_previous: ActionState, formData: FormData): Promise<ActionState> => {
    const session = await currentSession();
    if (!session) return { ok: false, message: "Your session has ended. Sign in again." };
    const { actor, sid } = session;
    const parsed = options.schema.safeParse(formDataToObject(formData));
    if (!parsed.success) {
      return {
        ok: false,
        message: "Please correct the highlighted fields.",
        fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
      };
    }
    if (!can(actor, options.permission)) return { ok: false, message: "You do not have permission to do this." };
    try {
      return (
        (await options.run(parsed.data, { actor, request: { ...(await requestInfo()), via: "session" }, sid })) ?? {
          ok: true,
        }
      );
    } catch (thrown) {
      const error = busyError(thrown) ?? thrown;
      // A domain rule that names a field (a clashing name, a rationale that cites nothing, a
      // parameter missing after a copy) shows beside that field, like a schema error.
      if (error instanceof AppError) {
        const fieldErrors = (error.details as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
        return { ok: false, message: error.message, ...(fieldErrors ? { fieldErrors } : {}) };
      }
      if (error instanceof z.ZodError) {
        return {
          ok: false,
          message: "Please correct the highlighted fields.",
          fieldErrors: z.flattenError(error).fieldErrors as Record<string, string[]>,
        };
      }
      throw error;
    }
  };
}

/** FormData → plain object; repeated keys (checkbox groups) become arrays. */
export function formDataToObject(formData: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of formData.entries()) {
    if (key.startsWith("$ACTION")) continue;
    const v = typeof value === "string" ? value : value.name;
    const existing = out[key];
    out[key] = existing === undefined ? v : Array.isArray(existing) ? [...existing, v] : [existing, v];
  }
  return out;
}
