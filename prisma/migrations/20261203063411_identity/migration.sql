-- DropForeignKey
ALTER TABLE "PackRevision" DROP CONSTRAINT "PackRevision_createdById_fkey";

-- AlterTable
ALTER TABLE "PackRevision" ADD COLUMN     "cause" TEXT,
ALTER COLUMN "createdById" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Signature" ADD COLUMN     "signerEmail" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "approverSince" TIMESTAMP(3),
ADD COLUMN     "sessionKept" TEXT;

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "roles" "Role"[],
    "tokenHash" TEXT NOT NULL,
    "invitedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "userId" TEXT,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_email_idx" ON "Invitation"("email");

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackRevision" ADD CONSTRAINT "PackRevision_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Identity (issue 11 §1): existing approvers have been approvers since their account was made.
UPDATE "User" SET "approverSince" = "createdAt" WHERE 'APPROVER' = ANY ("roles");

-- Printed names are unique among active users (case-insensitive): two signatures reading the
-- same name must be the same person. Not expressible in schema.prisma; lib/server/identity/users.ts
-- turns a violation into a message naming the field.
DO $$
DECLARE clash TEXT;
BEGIN
  SELECT string_agg(DISTINCT lower(name), ', ') INTO clash FROM "User" u
   WHERE active AND (SELECT count(*) FROM "User" v WHERE v.active AND lower(v.name) = lower(u.name)) > 1;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'Active users share printed names (%): rename or deactivate all but one before migrating.', clash;
  END IF;
END $$;
CREATE UNIQUE INDEX "User_active_name_key" ON "User" (lower("name")) WHERE "active";

-- The revision's cause is frozen with it, like everything else but supersededAt.
CREATE OR REPLACE FUNCTION verdict_pack_revision_supersede_only() RETURNS trigger AS $$
BEGIN
  IF OLD."supersededAt" IS NULL AND NEW."supersededAt" IS NOT NULL
     AND (NEW.id, NEW."decisionId", NEW.number, NEW.sha256, NEW."canonicalJson", NEW."createdById", NEW."createdAt", NEW."cause")
         IS NOT DISTINCT FROM (OLD.id, OLD."decisionId", OLD.number, OLD.sha256, OLD."canonicalJson", OLD."createdById", OLD."createdAt", OLD."cause") THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'PackRevision is append-only: only marking a revision superseded is allowed' USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
