-- The audit trail is append-only (SPEC §7): the database itself refuses UPDATE and DELETE on
-- "AuditEvent", whoever connects. TRUNCATE is refused too. Tampering with the trigger disabled is
-- caught by the hash chain's verify action.
CREATE OR REPLACE FUNCTION verdict_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "AuditEvent_append_only"
  BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION verdict_audit_append_only();

CREATE TRIGGER "AuditEvent_no_truncate"
  BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION verdict_audit_append_only();

-- Signatures are never edited or deleted either.
CREATE TRIGGER "Signature_append_only"
  BEFORE UPDATE OR DELETE ON "Signature"
  FOR EACH ROW EXECUTE FUNCTION verdict_audit_append_only();
