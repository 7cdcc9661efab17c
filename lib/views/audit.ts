/**
 * View types: the shapes lib/server hands to pages, declared in a pure module so components can
 * name them (ESLint keeps components from importing lib/server, types included). The server
 * function declares this as its return type, so the two cannot drift apart.
 */

/** What an audit event records: the fields its hash covers (lib/server/audit/write.ts `auditHashPayload`). */
export interface AuditEventFields {
  actorId: string | null;
  actorRoles: readonly string[];
  action: string;
  entityType: string;
  entityId: string;
  decisionId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
}

/** One row of the audit page (`listAuditEvents`): the stored event, its id as text, its actor's name, its chain link. */
export interface AuditRowView extends AuditEventFields {
  id: string;
  actorName: string;
  hash: string;
  prevHash: string;
}

export interface AuditPage {
  events: AuditRowView[];
  /** The id to page back from, when older events exist. */
  nextBefore: string | null;
}
