-- Records no one can erase (issue 11): signatures and the signed pack revisions join the audit
-- trail as append-only, whoever connects. The app's database role owns none of these tables, so
-- it cannot disable the triggers (README "Database roles"); rows changed by the owner with the
-- triggers disabled are caught by the verify action, which checks every signature and revision
-- against the audit event that recorded it.

CREATE TRIGGER "Signature_no_truncate"
  BEFORE TRUNCATE ON "Signature"
  FOR EACH STATEMENT EXECUTE FUNCTION verdict_audit_append_only();

CREATE TRIGGER "PackRevision_no_delete"
  BEFORE DELETE ON "PackRevision"
  FOR EACH ROW EXECUTE FUNCTION verdict_audit_append_only();

CREATE TRIGGER "PackRevision_no_truncate"
  BEFORE TRUNCATE ON "PackRevision"
  FOR EACH STATEMENT EXECUTE FUNCTION verdict_audit_append_only();

-- A revision is marked superseded once, when a newer one is frozen; nothing else of it changes.
CREATE OR REPLACE FUNCTION verdict_pack_revision_supersede_only() RETURNS trigger AS $$
BEGIN
  IF OLD."supersededAt" IS NULL AND NEW."supersededAt" IS NOT NULL
     AND (NEW.id, NEW."decisionId", NEW.number, NEW.sha256, NEW."canonicalJson", NEW."createdById", NEW."createdAt")
         IS NOT DISTINCT FROM (OLD.id, OLD."decisionId", OLD.number, OLD.sha256, OLD."canonicalJson", OLD."createdById", OLD."createdAt") THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'PackRevision is append-only: only marking a revision superseded is allowed' USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "PackRevision_supersede_only"
  BEFORE UPDATE ON "PackRevision"
  FOR EACH ROW EXECUTE FUNCTION verdict_pack_revision_supersede_only();
