-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "scoreBasis" TEXT,
ADD COLUMN     "toolRun" JSONB;
