-- CreateTable
CREATE TABLE "RunItem" (
    "evalRunId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "label" BOOLEAN NOT NULL,
    "orderKey" DOUBLE PRECISION NOT NULL,
    "slice" TEXT,

    CONSTRAINT "RunItem_pkey" PRIMARY KEY ("evalRunId","itemId")
);

-- CreateIndex
CREATE INDEX "RunItem_evalRunId_label_orderKey_itemId_idx" ON "RunItem"("evalRunId", "label", "orderKey", "itemId");

-- CreateIndex
CREATE INDEX "RunItem_evalRunId_slice_label_orderKey_itemId_idx" ON "RunItem"("evalRunId", "slice", "label", "orderKey", "itemId");

-- AddForeignKey
ALTER TABLE "RunItem" ADD CONSTRAINT "RunItem_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
