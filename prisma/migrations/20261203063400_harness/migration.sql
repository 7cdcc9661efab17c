-- CreateEnum
CREATE TYPE "HarnessRunStatus" AS ENUM ('QUEUED', 'RUNNING', 'CANCELLED', 'DONE', 'FAILED');

-- AlterTable
ALTER TABLE "Decision" ADD COLUMN     "evalProtocol" JSONB;

-- CreateTable
CREATE TABLE "CandidateEndpoint" (
    "candidateId" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "apiKeyCiphertext" TEXT,
    "apiKeyFingerprint" TEXT,
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "rateLimitRps" DOUBLE PRECISION,
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CandidateEndpoint_pkey" PRIMARY KEY ("candidateId")
);

-- CreateTable
CREATE TABLE "HarnessRun" (
    "id" SERIAL NOT NULL,
    "decisionId" TEXT NOT NULL,
    "candidateId" TEXT NOT NULL,
    "datasetVersionId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'EVAL',
    "sweepId" TEXT,
    "concurrency" INTEGER NOT NULL,
    "protocol" JSONB NOT NULL,
    "protocolSha256" TEXT NOT NULL,
    "endpoint" JSONB NOT NULL,
    "status" "HarnessRunStatus" NOT NULL DEFAULT 'QUEUED',
    "itemCount" INTEGER NOT NULL,
    "doneCount" INTEGER NOT NULL DEFAULT 0,
    "chunkSize" INTEGER NOT NULL,
    "itemLimit" INTEGER,
    "error" TEXT,
    "evalRunId" INTEGER,
    "servingBenchmarkId" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "HarnessRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HarnessItem" (
    "harnessRunId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "completed" BOOLEAN NOT NULL,
    "rawOutput" TEXT,
    "predicted" BOOLEAN,
    "score" DOUBLE PRECISION,
    "parseFailure" TEXT,
    "httpStatus" INTEGER,
    "error" TEXT,
    "attempts" INTEGER NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "ttftMs" DOUBLE PRECISION,
    "e2eMs" DOUBLE PRECISION,
    "itlMs" DOUBLE PRECISION[],
    "startedAt" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "HarnessItem_pkey" PRIMARY KEY ("harnessRunId","itemId")
);

-- CreateIndex
CREATE UNIQUE INDEX "HarnessRun_evalRunId_key" ON "HarnessRun"("evalRunId");

-- CreateIndex
CREATE UNIQUE INDEX "HarnessRun_servingBenchmarkId_key" ON "HarnessRun"("servingBenchmarkId");

-- CreateIndex
CREATE INDEX "HarnessRun_decisionId_candidateId_idx" ON "HarnessRun"("decisionId", "candidateId");

-- CreateIndex
CREATE INDEX "HarnessRun_status_idx" ON "HarnessRun"("status");

-- AddForeignKey
ALTER TABLE "CandidateEndpoint" ADD CONSTRAINT "CandidateEndpoint_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarnessRun" ADD CONSTRAINT "HarnessRun_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarnessRun" ADD CONSTRAINT "HarnessRun_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarnessRun" ADD CONSTRAINT "HarnessRun_servingBenchmarkId_fkey" FOREIGN KEY ("servingBenchmarkId") REFERENCES "ServingBenchmark"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarnessItem" ADD CONSTRAINT "HarnessItem_harnessRunId_fkey" FOREIGN KEY ("harnessRunId") REFERENCES "HarnessRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
