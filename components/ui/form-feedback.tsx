import type { ActionState } from "@/lib/action-state";

export function FieldError({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return <span className="field-error">{errors.join(" ")}</span>;
}

export function FormMessage({ state }: { state: ActionState }) {
  if (!state) return null;
  return (
    <p className={state.ok ? "message-ok" : "message-error"} role="status">
      {state.ok ? (state.message ?? "Saved.") : state.message}
    </p>
  );
}
