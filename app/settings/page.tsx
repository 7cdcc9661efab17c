import type { Metadata } from "next";
import Link from "next/link";
import { listApiTokens } from "@/lib/server/identity/api-tokens";
import { requirePagePermission } from "@/lib/server/session";
import { CreateTokenForm, RevokeTokenButton } from "@/components/settings/api-tokens";
import { formatUtc } from "@/lib/format";
import { createTokenAction, revokeTokenAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const actor = await requirePagePermission("token.manage", "/settings");
  const tokens = await listApiTokens(actor);
  return (
    <>
      <h1>Settings</h1>
      <p className="muted">
        Signed in as {actor.name} ({actor.email}). <Link href="/settings/password">Change your password</Link>
      </p>
      <section className="card" aria-labelledby="api-tokens">
        <h2 id="api-tokens">API tokens</h2>
        <p className="muted">
          A token lets a script or an evaluation pipeline use the <code>/api/v1</code> API as you, with your permissions
          (<code>Authorization: Bearer vdt_…</code>). Only a hash is stored: the token is shown once, when it is
          created.
        </p>
        <table>
          <caption>
            {tokens.length} token{tokens.length === 1 ? "" : "s"}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>{formatUtc(t.createdAt)}</td>
                <td>{t.lastUsedAt ? formatUtc(t.lastUsedAt) : <span className="muted">never</span>}</td>
                <td>
                  {t.revokedAt ? (
                    <span className="muted">revoked {formatUtc(t.revokedAt)}</span>
                  ) : (
                    <RevokeTokenButton tokenId={t.id} name={t.name} action={revokeTokenAction} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>Create a token</h3>
        <CreateTokenForm action={createTokenAction} />
      </section>
    </>
  );
}
