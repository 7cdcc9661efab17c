import { can, type Principal } from "./permissions";

/**
 * The first screen of a signed-in user: where their work is, never a 403. An admin manages users
 * and may not read decisions, so the admin lands on user administration (even with another role
 * as well: the admin's work comes first there); everyone else lands on the decisions list.
 * The sign-in action, the sign-in page (already signed in) and `/` all send users here.
 */
export function homePathFor(principal: Principal): string {
  if (can(principal, "user.manage")) return "/admin/users";
  return "/decisions";
}
