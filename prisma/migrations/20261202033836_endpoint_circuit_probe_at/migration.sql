-- AlterTable
ALTER TABLE "endpoint" ADD COLUMN     "circuit_probe_at" TIMESTAMPTZ(3);
