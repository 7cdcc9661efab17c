import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/server/session";
import { ChangePasswordForm } from "@/components/auth/password-forms";
import { MIN_PASSWORD_LENGTH } from "@/lib/schemas/user";
import { changePasswordAction } from "./actions";

export const metadata: Metadata = { title: "Change password" };

export default async function ChangePasswordPage() {
  const actor = await requirePagePermission("token.manage", "/settings/password");
  return (
    <section className="card" aria-labelledby="change-password">
      <h1 id="change-password">Change your password</h1>
      <p className="muted">
        Signed in as {actor.name} ({actor.email}). At least {MIN_PASSWORD_LENGTH} characters. Changing it signs you out
        everywhere else; this session stays.
      </p>
      <ChangePasswordForm action={changePasswordAction} />
    </section>
  );
}
