-- CreateEnum
CREATE TYPE "EndpointNotice" AS ENUM ('ok', 'failing', 'disabled');

-- AlterTable
ALTER TABLE "endpoint" ADD COLUMN     "notice_changed_at" TIMESTAMPTZ(3),
ADD COLUMN     "notice_state" "EndpointNotice" NOT NULL DEFAULT 'ok';

-- AlterTable
ALTER TABLE "application_membership" ADD COLUMN     "notify_endpoint_health" BOOLEAN NOT NULL DEFAULT false;
