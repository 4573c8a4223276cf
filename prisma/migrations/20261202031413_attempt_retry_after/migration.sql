-- AlterTable
ALTER TABLE "attempt" ADD COLUMN     "retry_after_ms" INTEGER;
