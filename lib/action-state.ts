/** What every server action returns to its form; shared by lib/server/action.ts and client forms. */
export type ActionState =
  | { ok: true; message?: string; data?: unknown }
  | { ok: false; message: string; fieldErrors?: Record<string, string[] | undefined> }
  | null;
