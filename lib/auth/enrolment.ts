import type { RoleName } from "./permissions";

/**
 * Four-eyes enrolment (issue 28 §1, 21 CFR Part 11 §11.100(b)): the roles that let an account
 * sign (APPROVER, REVIEWER) or vouch for others (ADMIN, APPROVER) take effect only when a second
 * person — not the one who invited or granted them — confirms the grant. Until then the account
 * signs in and reads, but cannot sign nor confirm anyone. ADMIN is among them because an admin
 * confirms: otherwise one admin could invite a second "admin" at an address it controls and
 * confirm its own approvers through it.
 *
 * Who confirms: an active admin or approver whose own grant is confirmed, who is neither the
 * account itself nor the one who granted it — or the operator at the command line
 * (`verdict user confirm`), who holds the server and its database. A fresh install starts from
 * the operator: `verdict user create` makes the first admin, confirmed by the operator; the
 * first admin's grants are confirmed by a second confirmed admin or approver (a single-admin
 * install cannot confirm its own grants in the app), or by the operator.
 */
export const FOUR_EYES_ROLES = ["ADMIN", "APPROVER", "REVIEWER"] as const satisfies readonly RoleName[];
/** The roles that may confirm another account's grant (their own grant confirmed). */
export const CONFIRMER_ROLES = ["ADMIN", "APPROVER"] as const satisfies readonly RoleName[];

const inList = (list: readonly RoleName[]) => (role: RoleName) => list.includes(role);

/** True when roles hold a role that needs a second person's confirmation. */
export const needsConfirmation = (roles: readonly RoleName[]) => roles.some(inList(FOUR_EYES_ROLES));

/** True when going from `before` to `after` adds such a role: the grant awaits confirmation again. */
export const addsFourEyesRole = (before: readonly RoleName[], after: readonly RoleName[]) =>
  after.some((role) => inList(FOUR_EYES_ROLES)(role) && !before.includes(role));

export const mayConfirm = (roles: readonly RoleName[]) => roles.some(inList(CONFIRMER_ROLES));

/** How a signature states its signer's enrolment: "enrolled by A, confirmed by B". */
export const enrolmentLine = (s: { enrolledBy: string | null; confirmedBy: string | null }) =>
  s.confirmedBy ? `enrolled by ${s.enrolledBy ?? "the operator"}, confirmed by ${s.confirmedBy}` : null;

/** The name a grant or confirmation made at the command line is shown under. */
export const OPERATOR_LABEL = "the operator";
