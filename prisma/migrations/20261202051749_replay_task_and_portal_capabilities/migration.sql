-- AlterTable
ALTER TABLE "message" ADD COLUMN     "task_id" TEXT;

-- AlterTable
ALTER TABLE "portal_token" ADD COLUMN     "capabilities" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "message_task_id_idx" ON "message"("task_id");
