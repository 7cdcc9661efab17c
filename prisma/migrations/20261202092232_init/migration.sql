-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ANALYST', 'REVIEWER', 'APPROVER', 'ADMIN');

-- CreateEnum
CREATE TYPE "DecisionStatus" AS ENUM ('DRAFT', 'IN_REVIEW', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED');

-- CreateEnum
CREATE TYPE "ScoreStage" AS ENUM ('LEADERBOARD', 'PREFERENCE');

-- CreateEnum
CREATE TYPE "Resemblance" AS ENUM ('MATCH', 'PARTIAL', 'MISMATCH');

-- CreateEnum
CREATE TYPE "ImportKind" AS ENUM ('DATASET', 'PREDICTIONS', 'LEADERBOARD', 'SERVING');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('PENDING', 'RUNNING', 'DONE', 'FAILED');

-- CreateEnum
CREATE TYPE "SignatureMeaning" AS ENUM ('REVIEW', 'APPROVAL', 'REJECTION');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "roles" "Role"[],
    "active" BOOLEAN NOT NULL DEFAULT true,
    "failedSignIns" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Decision" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "positiveClass" TEXT NOT NULL,
    "prevalence" DOUBLE PRECISION NOT NULL,
    "costFn" DOUBLE PRECISION NOT NULL,
    "costFp" DOUBLE PRECISION NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "recallFloor" DOUBLE PRECISION NOT NULL,
    "precisionFloor" DOUBLE PRECISION,
    "operatingThreshold" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "sloP95E2eMs" DOUBLE PRECISION,
    "sloP95TtftMs" DOUBLE PRECISION,
    "sloMinThroughputRps" DOUBLE PRECISION,
    "sloThroughputConcurrency" INTEGER,
    "sloMaxCostPer1kRequests" DOUBLE PRECISION,
    "quorum" INTEGER NOT NULL DEFAULT 2,
    "status" "DecisionStatus" NOT NULL DEFAULT 'DRAFT',
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Candidate" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "shortlistRationale" TEXT NOT NULL DEFAULT '',
    "operatingThreshold" DOUBLE PRECISION,
    "priceInputPerMTok" DOUBLE PRECISION,
    "priceOutputPerMTok" DOUBLE PRECISION,
    "pricePerHour" DOUBLE PRECISION,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Candidate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LeaderboardScore" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "candidateId" TEXT NOT NULL,
    "stage" "ScoreStage" NOT NULL,
    "suite" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "stderr" DOUBLE PRECISION,
    "ciLow" DOUBLE PRECISION,
    "ciHigh" DOUBLE PRECISION,
    "votes" INTEGER,
    "higherIsBetter" BOOLEAN NOT NULL DEFAULT true,
    "source" TEXT NOT NULL,
    "sourceUrl" TEXT,
    "retrievedAt" TIMESTAMP(3) NOT NULL,
    "relevanceNote" TEXT NOT NULL DEFAULT '',
    "importId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LeaderboardScore_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SuiteResemblance" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "suite" TEXT NOT NULL,
    "task" "Resemblance" NOT NULL,
    "taskNote" TEXT NOT NULL DEFAULT '',
    "distribution" "Resemblance" NOT NULL,
    "distributionNote" TEXT NOT NULL DEFAULT '',
    "promptScoring" "Resemblance" NOT NULL,
    "promptScoringNote" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "SuiteResemblance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetVersion" (
    "id" SERIAL NOT NULL,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "positiveCount" INTEGER NOT NULL,
    "sliceColumn" TEXT,
    "importId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetItem" (
    "datasetVersionId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "label" BOOLEAN NOT NULL,
    "slice" TEXT,
    "text" TEXT,

    CONSTRAINT "DatasetItem_pkey" PRIMARY KEY ("datasetVersionId","itemId")
);

-- CreateTable
CREATE TABLE "EvalRun" (
    "id" SERIAL NOT NULL,
    "decisionId" TEXT NOT NULL,
    "candidateId" TEXT NOT NULL,
    "datasetVersionId" INTEGER NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'PENDING',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "missingCount" INTEGER NOT NULL DEFAULT 0,
    "unknownCount" INTEGER NOT NULL DEFAULT 0,
    "duplicateCount" INTEGER NOT NULL DEFAULT 0,
    "parseFailureCount" INTEGER NOT NULL DEFAULT 0,
    "metrics" JSONB,
    "error" TEXT,
    "importId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "computedAt" TIMESTAMP(3),

    CONSTRAINT "EvalRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Prediction" (
    "evalRunId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "predicted" BOOLEAN,
    "parseFailure" BOOLEAN NOT NULL DEFAULT false,
    "rawOutput" TEXT,
    "latencyMs" DOUBLE PRECISION,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,

    CONSTRAINT "Prediction_pkey" PRIMARY KEY ("evalRunId","itemId")
);

-- CreateTable
CREATE TABLE "ServingBenchmark" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "candidateId" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "toolVersion" TEXT,
    "concurrency" INTEGER,
    "requestRate" DOUBLE PRECISION,
    "completed" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "durationS" DOUBLE PRECISION,
    "meanInputTokens" DOUBLE PRECISION,
    "meanOutputTokens" DOUBLE PRECISION,
    "requestThroughput" DOUBLE PRECISION NOT NULL,
    "outputTokenThroughput" DOUBLE PRECISION,
    "totalTokenThroughput" DOUBLE PRECISION,
    "goodput" DOUBLE PRECISION,
    "ttftMs" JSONB NOT NULL,
    "tpotMs" JSONB NOT NULL,
    "itlMs" JSONB,
    "e2eMs" JSONB NOT NULL,
    "tpotSource" TEXT NOT NULL DEFAULT '',
    "importId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ServingBenchmark_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Import" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT,
    "kind" "ImportKind" NOT NULL,
    "format" TEXT NOT NULL,
    "producerVersion" TEXT,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "sizeBytes" BIGINT NOT NULL,
    "content" BYTEA,
    "status" "ImportStatus" NOT NULL DEFAULT 'PENDING',
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB,
    "importedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Import_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PackRevision" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "canonicalJson" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "supersededAt" TIMESTAMP(3),

    CONSTRAINT "PackRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "packRevisionId" TEXT,
    "stage" INTEGER,
    "parentId" TEXT,
    "authorId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Signature" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "packRevisionId" TEXT NOT NULL,
    "revisionSha256" TEXT NOT NULL,
    "signerId" TEXT NOT NULL,
    "printedName" TEXT NOT NULL,
    "meaning" "SignatureMeaning" NOT NULL,
    "candidateId" TEXT,
    "reason" TEXT NOT NULL,
    "waiver" TEXT,
    "signedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Signature_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "actorId" TEXT,
    "actorRoles" "Role"[],
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "decisionId" TEXT,
    "before" JSONB,
    "after" JSONB,
    "ip" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Candidate_decisionId_name_key" ON "Candidate"("decisionId", "name");

-- CreateIndex
CREATE INDEX "LeaderboardScore_decisionId_stage_idx" ON "LeaderboardScore"("decisionId", "stage");

-- CreateIndex
CREATE INDEX "LeaderboardScore_candidateId_idx" ON "LeaderboardScore"("candidateId");

-- CreateIndex
CREATE UNIQUE INDEX "SuiteResemblance_decisionId_suite_key" ON "SuiteResemblance"("decisionId", "suite");

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_decisionId_name_key" ON "Dataset"("decisionId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetVersion_importId_key" ON "DatasetVersion"("importId");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetVersion_datasetId_version_key" ON "DatasetVersion"("datasetId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "EvalRun_importId_key" ON "EvalRun"("importId");

-- CreateIndex
CREATE INDEX "EvalRun_decisionId_candidateId_idx" ON "EvalRun"("decisionId", "candidateId");

-- CreateIndex
CREATE INDEX "EvalRun_datasetVersionId_idx" ON "EvalRun"("datasetVersionId");

-- CreateIndex
CREATE INDEX "ServingBenchmark_decisionId_candidateId_idx" ON "ServingBenchmark"("decisionId", "candidateId");

-- CreateIndex
CREATE INDEX "Import_decisionId_kind_sha256_idx" ON "Import"("decisionId", "kind", "sha256");

-- CreateIndex
CREATE UNIQUE INDEX "PackRevision_decisionId_number_key" ON "PackRevision"("decisionId", "number");

-- CreateIndex
CREATE INDEX "Comment_decisionId_createdAt_idx" ON "Comment"("decisionId", "createdAt");

-- CreateIndex
CREATE INDEX "Signature_decisionId_packRevisionId_idx" ON "Signature"("decisionId", "packRevisionId");

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_hash_key" ON "AuditEvent"("hash");

-- CreateIndex
CREATE INDEX "AuditEvent_decisionId_id_idx" ON "AuditEvent"("decisionId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_action_idx" ON "AuditEvent"("action");

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Candidate" ADD CONSTRAINT "Candidate_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LeaderboardScore" ADD CONSTRAINT "LeaderboardScore_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LeaderboardScore" ADD CONSTRAINT "LeaderboardScore_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LeaderboardScore" ADD CONSTRAINT "LeaderboardScore_importId_fkey" FOREIGN KEY ("importId") REFERENCES "Import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuiteResemblance" ADD CONSTRAINT "SuiteResemblance_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dataset" ADD CONSTRAINT "Dataset_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetVersion" ADD CONSTRAINT "DatasetVersion_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetVersion" ADD CONSTRAINT "DatasetVersion_importId_fkey" FOREIGN KEY ("importId") REFERENCES "Import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetItem" ADD CONSTRAINT "DatasetItem_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_importId_fkey" FOREIGN KEY ("importId") REFERENCES "Import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prediction" ADD CONSTRAINT "Prediction_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServingBenchmark" ADD CONSTRAINT "ServingBenchmark_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServingBenchmark" ADD CONSTRAINT "ServingBenchmark_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServingBenchmark" ADD CONSTRAINT "ServingBenchmark_importId_fkey" FOREIGN KEY ("importId") REFERENCES "Import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Import" ADD CONSTRAINT "Import_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Import" ADD CONSTRAINT "Import_importedById_fkey" FOREIGN KEY ("importedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackRevision" ADD CONSTRAINT "PackRevision_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackRevision" ADD CONSTRAINT "PackRevision_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_packRevisionId_fkey" FOREIGN KEY ("packRevisionId") REFERENCES "PackRevision"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Comment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signature" ADD CONSTRAINT "Signature_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signature" ADD CONSTRAINT "Signature_packRevisionId_fkey" FOREIGN KEY ("packRevisionId") REFERENCES "PackRevision"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signature" ADD CONSTRAINT "Signature_signerId_fkey" FOREIGN KEY ("signerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signature" ADD CONSTRAINT "Signature_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
