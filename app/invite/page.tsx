import type { Metadata } from "next";
import { invitationPreview } from "@/lib/server/identity/invitations";
import { AcceptInvitationForm } from "@/components/auth/password-forms";
import { MIN_PASSWORD_LENGTH } from "@/lib/schemas/user";
import { acceptInvitationAction } from "./actions";

export const metadata: Metadata = { title: "Accept your invitation", referrer: "no-referrer" };

/** The invitation link: the invited person chooses their own password (the token is the credential). */
export default async function InvitePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const preview = token
    ? await invitationPreview(token)
    : { ok: false as const, message: "This invitation link is incomplete. Open the link from your invitation mail." };
  return (
    <section className="sign-in card">
      <h1>Set your password</h1>
      {preview.ok ? (
        <>
          <p>
            You are invited as <strong>{preview.name}</strong> ({preview.email}),{" "}
            {preview.roles.map((r) => r.toLowerCase()).join(", ")}. Your printed name appears on your signatures.
          </p>
          <p className="muted">
            Choose a password of at least {MIN_PASSWORD_LENGTH} characters. Nobody else knows it, the administrator
            included.
          </p>
          <AcceptInvitationForm token={token} action={acceptInvitationAction} />
        </>
      ) : (
        <p className="message-error" role="alert">
          {preview.message}
        </p>
      )}
    </section>
  );
}
