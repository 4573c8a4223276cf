-- AlterTable
ALTER TABLE "task" ADD COLUMN     "callback_secret_encrypted" TEXT,
ADD COLUMN     "callback_status" TEXT,
ADD COLUMN     "lease_owner" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "notified_at" TIMESTAMP(3),
ADD COLUMN     "runs" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "task_status_lease_until_idx" ON "task"("status", "lease_until");

-- Hand-written (Prisma cannot express partial indexes): at most one unfinished application-wide
-- task (no endpoint, e.g. a replay to all endpoints) of a kind per application.
CREATE UNIQUE INDEX "task_one_active_per_app_kind" ON "task"("application_id", "kind") WHERE "status" IN ('pending', 'running') AND "endpoint_id" IS NULL AND "application_id" IS NOT NULL;
