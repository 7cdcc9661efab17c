import type { Metadata } from "next";
import { listUsers } from "@/lib/server/identity/users";
import { listPendingInvitations } from "@/lib/server/identity/invitations";
import { mailConfigured, SMTP_HELP } from "@/lib/server/identity/mail";
import { requirePagePermission } from "@/lib/server/session";
import type { RoleName } from "@/lib/auth/permissions";
import { ConfirmSignerForm, InviteUserForm, UserActiveForm } from "@/components/admin/invite-user-form";
import { needsConfirmation } from "@/lib/auth/enrolment";
import { UserRolesForm } from "@/components/admin/user-roles-form";
import { confirmSignerAction, inviteUserAction, setActiveAction, updateRolesAction } from "./actions";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const actor = await requirePagePermission("user.manage", "/admin/users");
  const [users, invitations] = await Promise.all([listUsers(actor), listPendingInvitations(actor)]);
  const nameOf = (id: string | null) => (id ? (users.find((u) => u.id === id)?.name ?? id) : "the operator");
  return (
    <>
      <h1>Users and roles</h1>
      <p className="muted">
        A person may hold several roles. Admins invite people and manage roles but never see or set a password, and
        cannot sign in place of anyone. An admin, approver or reviewer role takes effect only when a second person —
        another admin or a confirmed approver, not the one who granted it — confirms it.
      </p>
      <table>
        <caption>{users.length} users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
            <th scope="col">Account</th>
            <th scope="col">Enrolment (four eyes)</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>
                {u.name}
                {!u.active && <span className="muted"> (inactive)</span>}
              </td>
              <td>{u.email}</td>
              <td>
                <UserRolesForm userId={u.id} email={u.email} roles={u.roles as RoleName[]} action={updateRolesAction} />
              </td>
              <td>
                {u.id === actor.id ? (
                  <span className="muted">you</span>
                ) : (
                  <UserActiveForm userId={u.id} email={u.email} active={u.active} action={setActiveAction} />
                )}
              </td>
              <td data-testid="enrolment">
                {!needsConfirmation(u.roles as RoleName[]) ? (
                  <span className="muted">—</span>
                ) : u.signerConfirmedAt ? (
                  `Granted by ${nameOf(u.signerGrantedById)}, confirmed by ${nameOf(u.signerConfirmedById)}`
                ) : (
                  <>
                    Granted by {nameOf(u.signerGrantedById)}; awaits confirmation by a second person.{" "}
                    {u.active && u.id !== actor.id && u.signerGrantedById !== actor.id && (
                      <ConfirmSignerForm userId={u.id} name={u.name} action={confirmSignerAction} />
                    )}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {invitations.length > 0 && (
        <table>
          <caption>Pending invitations</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Roles</th>
              <th scope="col">Link expires (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {invitations.map((i) => (
              <tr key={i.id}>
                <td>{i.name}</td>
                <td>{i.email}</td>
                <td>{i.roles.map((r) => r.toLowerCase()).join(", ")}</td>
                <td>{i.expiresAt.toISOString().slice(0, 16).replace("T", " ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section className="card" aria-labelledby="invite-user">
        <h2 id="invite-user">Invite a user</h2>
        <p className="muted">
          The person receives a one-time link by email (valid 72 hours) and chooses their own password.
        </p>
        {mailConfigured() ? (
          <InviteUserForm action={inviteUserAction} />
        ) : (
          <p className="message-error" role="note">
            {SMTP_HELP}
          </p>
        )}
      </section>
    </>
  );
}
