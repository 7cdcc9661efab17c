import { useActionState, useState, type FormEvent } from "react";
import { z } from "zod";
import type { ActionState } from "@/lib/action-state";

type FieldErrors = Record<string, string[]>;

/** Validate a form with the same zod schema the server uses, before it is sent. */
export function validateForm(
  schema: z.ZodType,
  form: HTMLFormElement,
  extra?: (values: Record<string, unknown>) => FieldErrors,
): FieldErrors | null {
  const values = Object.fromEntries(new FormData(form).entries());
  const parsed = schema.safeParse(values);
  const errors: FieldErrors = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as FieldErrors);
  for (const [k, v] of Object.entries(extra?.(values) ?? {})) errors[k] = [...(errors[k] ?? []), ...v];
  return Object.keys(errors).length ? errors : null;
}

/**
 * A form's server action behind the same check in the browser: `onSubmit` validates with the
 * server's schema (plus `extra` rules) and keeps the form from being sent when anything is wrong.
 * The field errors shown are the browser's when it found any, else the server's; `message` is what
 * FormMessage shows.
 */
export function useValidatedAction(
  action: (s: ActionState, f: FormData) => Promise<ActionState>,
  schema: z.ZodType,
  extra?: (values: Record<string, unknown>) => FieldErrors,
) {
  const [state, formAction, pending] = useActionState(action, null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  return {
    formAction,
    pending,
    errors: clientErrors ?? (state && !state.ok ? state.fieldErrors : undefined),
    message: (clientErrors
      ? { ok: false, message: "Please correct the highlighted fields." }
      : state) satisfies ActionState,
    onSubmit(e: FormEvent<HTMLFormElement>) {
      const found = validateForm(schema, e.currentTarget, extra);
      setClientErrors(found);
      if (found) e.preventDefault();
    },
  };
}
