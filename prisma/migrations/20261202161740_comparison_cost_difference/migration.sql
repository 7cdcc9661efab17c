-- AlterTable
ALTER TABLE "RunComparison" ADD COLUMN     "deltaCostHigh" DOUBLE PRECISION,
ADD COLUMN     "deltaCostLow" DOUBLE PRECISION,
ADD COLUMN     "deltaCostPer1k" DOUBLE PRECISION;
