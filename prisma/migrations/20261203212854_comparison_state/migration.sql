-- CreateTable
CREATE TABLE "ComparisonState" (
    "decisionId" TEXT NOT NULL,
    "wanted" INTEGER NOT NULL DEFAULT 0,
    "computed" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ComparisonState_pkey" PRIMARY KEY ("decisionId")
);
