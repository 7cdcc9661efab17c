-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "queuedAt" TIMESTAMP(3),
ADD COLUMN     "recoveries" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "UploadProgress" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "bytes" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadProgress_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UploadProgress_updatedAt_idx" ON "UploadProgress"("updatedAt");
