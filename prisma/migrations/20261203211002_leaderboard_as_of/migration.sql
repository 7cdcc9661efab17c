-- AlterTable
ALTER TABLE "LeaderboardScore" ADD COLUMN     "asOf" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "SuiteResemblance" ADD COLUMN     "relevanceNote" TEXT NOT NULL DEFAULT '';
