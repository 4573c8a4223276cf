-- AlterTable
ALTER TABLE "message" ADD COLUMN     "addressed_to" TEXT[] DEFAULT ARRAY[]::TEXT[];
