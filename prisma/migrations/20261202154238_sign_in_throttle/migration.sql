-- AlterTable
ALTER TABLE "User" DROP COLUMN "failedSignIns",
DROP COLUMN "lockedUntil";

-- CreateTable
CREATE TABLE "SignInThrottle" (
    "email" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastFailureAt" TIMESTAMP(3),
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "refusedSinceAudit" INTEGER NOT NULL DEFAULT 0,
    "refusalAuditedAt" TIMESTAMP(3),

    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("email","client")
);

-- CreateIndex
CREATE INDEX "SignInThrottle_lastFailureAt_idx" ON "SignInThrottle"("lastFailureAt");
