-- DropForeignKey
ALTER TABLE "LeaderboardScore" DROP CONSTRAINT "LeaderboardScore_candidateId_fkey";

-- AlterTable
ALTER TABLE "Candidate" ADD COLUMN     "modelId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "Decision" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "evaluationDatasetVersionId" INTEGER;

-- AlterTable
ALTER TABLE "LeaderboardScore" ADD COLUMN     "modelName" TEXT NOT NULL DEFAULT '',
ALTER COLUMN "candidateId" DROP NOT NULL;

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_evaluationDatasetVersionId_fkey" FOREIGN KEY ("evaluationDatasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LeaderboardScore" ADD CONSTRAINT "LeaderboardScore_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Backfill: rows imported before model names were kept carry their candidate's name.
UPDATE "LeaderboardScore" s SET "modelName" = c.name FROM "Candidate" c WHERE c.id = s."candidateId" AND s."modelName" = '';

-- Backfill: each decision is evaluated on its newest dataset version, as the pack read it until now.
UPDATE "Decision" d SET "evaluationDatasetVersionId" = (
  SELECT v.id FROM "DatasetVersion" v JOIN "Dataset" ds ON ds.id = v."datasetId"
   WHERE ds."decisionId" = d.id ORDER BY v."createdAt" DESC, v.id DESC LIMIT 1
) WHERE d."evaluationDatasetVersionId" IS NULL;

CREATE INDEX "LeaderboardScore_decisionId_modelName_idx" ON "LeaderboardScore" ("decisionId", "modelName");
