import { z } from "zod";

/** Validate a form with the same zod schema the server uses, before it is sent. */
export function validateForm(schema: z.ZodType, form: HTMLFormElement, extra?: (values: Record<string, unknown>) => Record<string, string[]>): Record<string, string[]> | null {
  const values = Object.fromEntries(new FormData(form).entries());
  const parsed = schema.safeParse(values);
  const errors: Record<string, string[]> = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as Record<string, string[]>);
  for (const [k, v] of Object.entries(extra?.(values) ?? {})) errors[k] = [...(errors[k] ?? []), ...v];
  return Object.keys(errors).length ? errors : null;
}
