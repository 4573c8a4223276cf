-- AlterTable
ALTER TABLE "message" ADD COLUMN     "task_id" TEXT;

-- CreateIndex
CREATE INDEX "message_task_id_idx" ON "message"("task_id");
