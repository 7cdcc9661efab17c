-- AlterTable
ALTER TABLE "Signature" ADD COLUMN     "confirmedBy" TEXT,
ADD COLUMN     "enrolledBy" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "signerConfirmedAt" TIMESTAMP(3),
ADD COLUMN     "signerConfirmedById" TEXT,
ADD COLUMN     "signerGrantedById" TEXT;
