import type { Metadata } from "next";
import { listUsers } from "@/lib/server/users";
import { requirePagePermission } from "@/lib/server/session";
import type { RoleName } from "@/lib/auth/permissions";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UserRolesForm } from "@/components/admin/user-roles-form";
import { createUserAction, updateRolesAction } from "./actions";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const actor = await requirePagePermission("user.manage", "/admin/users");
  const users = await listUsers(actor);
  return (
    <>
      <h1>Users and roles</h1>
      <p className="muted">A person may hold several roles. Admins manage accounts but cannot sign in place of anyone.</p>
      <table>
        <caption>{users.length} users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>{u.name}{!u.active && <span className="muted"> (inactive)</span>}</td>
              <td>{u.email}</td>
              <td><UserRolesForm userId={u.id} email={u.email} roles={u.roles as RoleName[]} action={updateRolesAction} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className="card" aria-labelledby="new-user">
        <h2 id="new-user">Create a user</h2>
        <CreateUserForm action={createUserAction} />
      </section>
    </>
  );
}
