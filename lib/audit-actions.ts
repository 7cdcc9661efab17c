/** Every audited action, as one enum of dotted names (SPEC §7). */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "user.create",
  "user.update_roles",
  "user.deactivate",
  "token.create",
  "token.revoke",
  "decision.create",
  "decision.update_parameters",
  "candidate.create",
  "candidate.update",
  "evidence.import",
  "evidence.import_failed",
  "eval_run.computed",
  "comment.create",
  "decision.transition",
  "pack_revision.create",
  "signature.create",
  "signature.failed_password",
  "export.pdf",
  "export.json",
  "demo.seed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
