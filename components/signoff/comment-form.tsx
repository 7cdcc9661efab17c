"use client";
import { useActionState, useEffect, useRef } from "react";
import type { ActionState } from "@/lib/action-state";
import { FormMessage } from "@/components/ui/form-feedback";

export function CommentForm({
  action,
  decisionId,
  stage,
  parentId,
  label,
}: {
  action: (state: ActionState, data: FormData) => Promise<ActionState>;
  decisionId: string;
  stage: number | null;
  parentId?: string;
  label: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state?.ok) form.current?.reset();
  }, [state]);
  return (
    <form ref={form} action={formAction} className="stack" aria-label={label} style={{ maxWidth: 640 }}>
      <input type="hidden" name="decisionId" value={decisionId} />
      <input type="hidden" name="stage" value={stage ?? ""} />
      {parentId && <input type="hidden" name="parentId" value={parentId} />}
      <label>
        {label}
        <textarea name="body" rows={parentId ? 2 : 3} required maxLength={10000} />
      </label>
      <div>
        <button type="submit" className="secondary" disabled={pending}>
          {parentId ? "Reply" : "Post comment"}
        </button>
      </div>
      <FormMessage state={state?.ok ? null : state} />
    </form>
  );
}
