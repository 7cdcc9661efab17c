"use client";
import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent, type RefObject } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";
import type { GateView } from "./types";

type Meaning = "REVIEW" | "APPROVAL" | "REJECTION";
const LABEL: Record<Meaning, string> = {
  REVIEW: "Reviewed — I have reviewed this pack",
  APPROVAL: "Approval of one candidate",
  REJECTION: "Rejection of the decision",
};

/** What the submit button says: it names exactly what will be signed. */
function signButtonLabel(meaning: Meaning, candidate: { name: string } | null): string {
  if (meaning === "REVIEW") return "Sign as reviewed";
  // A rejection closes the decision as a whole; it names no candidate (lib/server/signoff/sign-pack.ts).
  if (meaning === "REJECTION") return "Reject the decision";
  return candidate ? `Approve ${candidate.name}` : "Approve… (choose a candidate)";
}

type FieldErrors = Record<string, string[] | undefined> | undefined;

/** Who signs which revision, and the hash the signature binds to. */
function SigningHeader({
  revisionNumber,
  revisionSha256,
  signerName,
}: {
  revisionNumber: number;
  revisionSha256: string;
  signerName: string;
}) {
  return (
    <>
      <h2 id="sign-title" style={{ marginTop: 0 }}>
        Sign revision {revisionNumber}
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        Signing as <strong>{signerName}</strong>. Your signature binds to SHA-256{" "}
        <code style={{ wordBreak: "break-all" }}>{revisionSha256}</code>; it cannot be edited or withdrawn.
      </p>
    </>
  );
}

/** The meaning of the signature, then for an approval the candidate approved. */
function MeaningFields({
  meanings,
  meaning,
  setMeaning,
  candidates,
  candidateId,
  setCandidateId,
  errors,
}: {
  meanings: Meaning[];
  meaning: Meaning;
  setMeaning: (meaning: Meaning) => void;
  candidates: Array<{ id: string; name: string }>;
  candidateId: string;
  setCandidateId: (candidateId: string) => void;
  errors: FieldErrors;
}) {
  return (
    <>
      <label>
        Meaning of the signature
        <select name="meaning" value={meaning} onChange={(e) => setMeaning(e.target.value as Meaning)}>
          {meanings.map((m) => (
            <option key={m} value={m}>
              {LABEL[m]}
            </option>
          ))}
        </select>
      </label>
      {meaning === "APPROVAL" && (
        <label>
          Candidate approved
          <select name="candidateId" value={candidateId} required onChange={(e) => setCandidateId(e.target.value)}>
            <option value="" disabled>
              Choose the candidate you approve…
            </option>
            {candidates.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError errors={errors?.candidateId} />
        </label>
      )}
    </>
  );
}

/** Whether the chosen candidate passes its gates; a failing one needs a written waiver. */
function GateNote({
  candidate,
  candidateGates,
  failed,
}: {
  candidate: { name: string } | null;
  candidateGates: GateView[];
  failed: GateView[];
}) {
  return (
    <>
      {candidate && failed.length === 0 && candidateGates.length > 0 && (
        <p className="message-ok" role="note" style={{ margin: 0 }}>
          {candidate.name} passes all {candidateGates.length} gates.
        </p>
      )}
      {candidate && failed.length > 0 && (
        <div className="message-error" role="note">
          {candidate.name} fails: {failed.map((g) => `${g.label} (${g.detail})`).join("; ")}. A written waiver is
          required.
        </div>
      )}
    </>
  );
}

/** The reason, and the waiver when the candidate fails a gate. */
function ReasonFields({
  reason,
  setReason,
  waiver,
  setWaiver,
  needsWaiver,
  errors,
}: {
  reason: string;
  setReason: (reason: string) => void;
  waiver: string;
  setWaiver: (waiver: string) => void;
  needsWaiver: boolean;
  errors: FieldErrors;
}) {
  return (
    <>
      <label>
        Reason
        <textarea
          name="reason"
          rows={3}
          required
          minLength={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <FieldError errors={errors?.reason} />
      </label>
      {needsWaiver && (
        <label>
          Waiver (why the failing gates are acceptable)
          <textarea
            name="waiver"
            rows={3}
            required
            minLength={20}
            value={waiver}
            onChange={(e) => setWaiver(e.target.value)}
          />
          <FieldError errors={errors?.waiver} />
        </label>
      )}
    </>
  );
}

/** Both components of the signature: the signer's email and password. */
function CredentialFields({
  email,
  setEmail,
  password,
  setPassword,
  passwordInput,
  errors,
}: {
  email: string;
  setEmail: (email: string) => void;
  password: string;
  setPassword: (password: string) => void;
  passwordInput: RefObject<HTMLInputElement | null>;
  errors: FieldErrors;
}) {
  return (
    <>
      <label>
        Email (yours, to sign)
        <input
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <FieldError errors={errors?.email} />
      </label>
      <label>
        Password (re-enter to sign)
        <input
          ref={passwordInput}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FieldError errors={errors?.password} />
      </label>
    </>
  );
}

/**
 * The signing dialog (21 CFR Part 11 §11.200): the signer enters both components — their email
 * and their password — checked against the signed-in user; the meaning,
 * the candidate for an approval, the reason, and — when that candidate fails a gate — a written
 * waiver. The revision hash shown is the one the signature binds to.
 *
 * One piece of state per field, and everything derives from it: the candidate select is
 * controlled and starts empty (nobody approves the first candidate by default), the button names
 * the selected candidate, the waiver box follows its gates, and the request is built from the
 * same state — never read back from the DOM — so what is sent is what the button says. The form
 * is submitted by hand (not as a form action) so React does not reset it: after a server error
 * every field keeps its value except the password, which is re-entered for each attempt.
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
  const passwordInput = useRef<HTMLInputElement>(null);
  const [meaning, setMeaning] = useState<Meaning>(meanings[0]!);
  const [candidateId, setCandidateId] = useState("");
  const [reason, setReason] = useState("");
  const [waiver, setWaiver] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [state, dispatch, pending] = useActionState(async (previous: ActionState, data: FormData) => {
    const result = await action(previous, data);
    if (result?.ok) {
      setCandidateId("");
      setReason("");
      setWaiver("");
    }
    setPassword("");
    return result;
  }, null);

  const candidate = meaning === "APPROVAL" ? (candidates.find((c) => c.id === candidateId) ?? null) : null;
  const candidateGates = candidate ? (gates[candidate.id] ?? []) : [];
  const failed = candidateGates.filter((g) => !g.pass);
  const ready = meaning !== "APPROVAL" || candidate !== null;
  const errors = state && !state.ok ? state.fieldErrors : undefined;

  useEffect(() => {
    if (state?.ok) dialog.current?.close();
    else if (state) passwordInput.current?.focus();
  }, [state]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || pending) return;
    const data = new FormData();
    data.set("decisionId", decisionId);
    data.set("revisionSha256", revisionSha256);
    data.set("meaning", meaning);
    if (candidate) data.set("candidateId", candidate.id);
    data.set("reason", reason);
    if (failed.length > 0) data.set("waiver", waiver);
    data.set("email", email);
    data.set("password", password);
    startTransition(() => dispatch(data));
  }

  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        Sign revision {revisionNumber}…
      </button>
      <FormMessage state={state?.ok ? state : null} />
      <dialog
        ref={dialog}
        aria-labelledby="sign-title"
        style={{ maxWidth: 560, width: "100%", border: "1px solid var(--line)", borderRadius: 6 }}
      >
        <form onSubmit={submit} className="stack" style={{ maxWidth: "none" }}>
          <SigningHeader revisionNumber={revisionNumber} revisionSha256={revisionSha256} signerName={signerName} />
          <MeaningFields
            meanings={meanings}
            meaning={meaning}
            setMeaning={setMeaning}
            candidates={candidates}
            candidateId={candidateId}
            setCandidateId={setCandidateId}
            errors={errors}
          />
          <GateNote candidate={candidate} candidateGates={candidateGates} failed={failed} />
          <ReasonFields
            reason={reason}
            setReason={setReason}
            waiver={waiver}
            setWaiver={setWaiver}
            needsWaiver={failed.length > 0}
            errors={errors}
          />
          <CredentialFields
            email={email}
            setEmail={setEmail}
            password={password}
            setPassword={setPassword}
            passwordInput={passwordInput}
            errors={errors}
          />
          {state && !state.ok && <FormMessage state={state} />}
          <div style={{ display: "flex", gap: 8, flexWrap: "wrap" }}>
            <button type="submit" disabled={!ready || pending}>
              {signButtonLabel(meaning, candidate)}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
