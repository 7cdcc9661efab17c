-- CreateTable
CREATE TABLE "RunComparison" (
    "runAId" INTEGER NOT NULL,
    "runBId" INTEGER NOT NULL,
    "decisionId" TEXT NOT NULL,
    "items" INTEGER NOT NULL,
    "deltaAp" DOUBLE PRECISION,
    "deltaApLow" DOUBLE PRECISION,
    "deltaApHigh" DOUBLE PRECISION,
    "onlyACorrect" INTEGER NOT NULL,
    "onlyBCorrect" INTEGER NOT NULL,
    "mcnemarP" DOUBLE PRECISION,
    "thresholdA" DOUBLE PRECISION NOT NULL,
    "thresholdB" DOUBLE PRECISION NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunComparison_pkey" PRIMARY KEY ("runAId","runBId")
);

-- CreateIndex
CREATE INDEX "RunComparison_decisionId_idx" ON "RunComparison"("decisionId");

-- AddForeignKey
ALTER TABLE "RunComparison" ADD CONSTRAINT "RunComparison_runAId_fkey" FOREIGN KEY ("runAId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunComparison" ADD CONSTRAINT "RunComparison_runBId_fkey" FOREIGN KEY ("runBId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
