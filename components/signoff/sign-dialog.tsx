"use client";
import { useActionState, useEffect, useRef, useState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";
import type { GateView } from "./types";

type Meaning = "REVIEW" | "APPROVAL" | "REJECTION";
const LABEL: Record<Meaning, string> = { REVIEW: "Reviewed — I have reviewed this pack", APPROVAL: "Approval of one candidate", REJECTION: "Rejection of the decision" };

/**
 * The signing dialog (21 CFR Part 11 §11.200): the signer re-enters their password; the meaning,
 * the candidate for an approval, the reason, and — when the candidate fails a gate — a written
 * waiver. The revision hash shown is the one the signature binds to.
 */
export function SignDialog({
  action,
  decisionId,
  revisionNumber,
  revisionSha256,
  meanings,
  candidates,
  gates,
  signerName,
}: {
  action: (state: ActionState, data: FormData) => Promise<ActionState>;
  decisionId: string;
  revisionNumber: number;
  revisionSha256: string;
  meanings: Meaning[];
  candidates: Array<{ id: string; name: string }>;
  gates: Record<string, GateView[]>;
  signerName: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, formAction, pending] = useActionState(action, null);
  const [meaning, setMeaning] = useState<Meaning>(meanings[0]!);
  const [candidateId, setCandidateId] = useState(candidates[0]?.id ?? "");
  const failed = meaning === "APPROVAL" ? (gates[candidateId] ?? []).filter((g) => !g.pass) : [];
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  useEffect(() => {
    if (state?.ok) dialog.current?.close();
  }, [state]);

  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>Sign revision {revisionNumber}…</button>
      <FormMessage state={state?.ok ? state : null} />
      <dialog ref={dialog} aria-labelledby="sign-title" style={{ maxWidth: 560, width: "100%", border: "1px solid var(--line)", borderRadius: 6 }}>
        <form action={formAction} className="stack" style={{ maxWidth: "none" }}>
          <h2 id="sign-title" style={{ marginTop: 0 }}>Sign revision {revisionNumber}</h2>
          <p className="muted" style={{ margin: 0 }}>
            Signing as <strong>{signerName}</strong>. Your signature binds to SHA-256{" "}
            <code style={{ wordBreak: "break-all" }}>{revisionSha256}</code>; it cannot be edited or withdrawn.
          </p>
          <input type="hidden" name="decisionId" value={decisionId} />
          <input type="hidden" name="revisionSha256" value={revisionSha256} />
          <label>
            Meaning of the signature
            <select name="meaning" value={meaning} onChange={(e) => setMeaning(e.target.value as Meaning)}>
              {meanings.map((m) => <option key={m} value={m}>{LABEL[m]}</option>)}
            </select>
          </label>
          {meaning === "APPROVAL" && (
            <label>
              Candidate approved
              <select name="candidateId" value={candidateId} onChange={(e) => setCandidateId(e.target.value)}>
                {candidates.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
              </select>
            </label>
          )}
          {failed.length > 0 && (
            <div className="message-error" role="note">
              This candidate fails: {failed.map((g) => `${g.label} (${g.detail})`).join("; ")}. A written waiver is required.
            </div>
          )}
          <label>
            Reason
            <textarea name="reason" rows={3} required minLength={3} />
            <FieldError errors={errors?.reason} />
          </label>
          {failed.length > 0 && (
            <label>
              Waiver (why the failing gates are acceptable)
              <textarea name="waiver" rows={3} required minLength={20} />
            </label>
          )}
          <label>
            Password (re-enter to sign)
            <input type="password" name="password" autoComplete="current-password" required />
            <FieldError errors={errors?.password} />
          </label>
          {state && !state.ok && <FormMessage state={state} />}
          <div style={{ display: "flex", gap: 8 }}>
            <button type="submit" disabled={pending}>Sign</button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>Cancel</button>
          </div>
        </form>
      </dialog>
    </>
  );
}
