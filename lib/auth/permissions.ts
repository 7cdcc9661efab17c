/**
 * Roles → permissions: the one table (SPEC §1). The UI uses `can()` to hide what a user cannot
 * do; the server uses the same `can()` to decide. Only the server's answer counts.
 */
export const ROLES = ["ANALYST", "REVIEWER", "APPROVER", "ADMIN"] as const;
export type RoleName = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** Read decisions and their evidence pack. */
  "decision.read": ["ANALYST", "REVIEWER", "APPROVER"],
  /** Create decisions, edit task parameters, candidates and rationale. */
  "decision.edit": ["ANALYST"],
  /** Upload datasets and predictions; import leaderboards and serving benchmarks. */
  "evidence.import": ["ANALYST"],
  /** Submit a decision for review (freezes a pack revision). */
  "decision.submit": ["ANALYST"],
  /** Comment on the pack and its stages. */
  "comment.create": ["REVIEWER", "APPROVER"],
  /** Record a "reviewed" signature. */
  "signature.review": ["REVIEWER"],
  /** Sign an approval or rejection; request changes. */
  "signature.approve": ["APPROVER"],
  /** Read the audit trail and verify its chain. */
  "audit.read": ["ANALYST", "REVIEWER", "APPROVER", "ADMIN"],
  /** Manage users and roles (an admin cannot sign in place of anyone). */
  "user.manage": ["ADMIN"],
  /**
   * Confirm another person's admin, approver or reviewer role (four-eyes enrolment,
   * lib/auth/enrolment.ts): only with one's own grant confirmed, never one's own or one's grant.
   */
  "enrolment.confirm": ["ADMIN", "APPROVER"],
  /** Create and revoke one's own API tokens. */
  "token.manage": ["ANALYST", "REVIEWER", "APPROVER", "ADMIN"],
} as const satisfies Record<string, readonly RoleName[]>;

export type Permission = keyof typeof PERMISSIONS;

export interface Principal {
  roles: readonly RoleName[];
}

/** True when any of the principal's roles grants the permission. */
export function can(principal: Principal | null | undefined, permission: Permission): boolean {
  if (!principal) return false;
  const allowed: readonly RoleName[] = PERMISSIONS[permission];
  return principal.roles.some((role) => allowed.includes(role));
}
