-- CreateEnum
CREATE TYPE "OperatingRule" AS ENUM ('FIXED', 'COST_OPTIMAL', 'BEST_PRECISION_AT_RECALL_FLOOR');

-- AlterTable
ALTER TABLE "Decision" ADD COLUMN     "operatingRule" "OperatingRule" NOT NULL DEFAULT 'FIXED';

-- AlterTable
ALTER TABLE "Signature" ADD COLUMN     "operatingRule" "OperatingRule",
ADD COLUMN     "operatingThreshold" DOUBLE PRECISION;
