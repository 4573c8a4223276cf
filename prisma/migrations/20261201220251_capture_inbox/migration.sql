-- CreateEnum
CREATE TYPE "CaptureAnswer" AS ENUM ('ok', 'error', 'slow');

-- CreateTable
CREATE TABLE "capture_inbox" (
    "endpoint_id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "answer" "CaptureAnswer" NOT NULL DEFAULT 'ok',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "capture_inbox_pkey" PRIMARY KEY ("endpoint_id")
);

-- CreateTable
CREATE TABLE "capture_request" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "headers" JSONB NOT NULL,
    "body" TEXT NOT NULL,
    "answer_status" INTEGER NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "capture_request_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "capture_inbox_application_id_idx" ON "capture_inbox"("application_id");

-- CreateIndex
CREATE INDEX "capture_inbox_expires_at_idx" ON "capture_inbox"("expires_at");

-- CreateIndex
CREATE INDEX "capture_request_endpoint_id_id_idx" ON "capture_request"("endpoint_id", "id");

-- AddForeignKey
ALTER TABLE "capture_inbox" ADD CONSTRAINT "capture_inbox_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "capture_request" ADD CONSTRAINT "capture_request_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "capture_inbox"("endpoint_id") ON DELETE CASCADE ON UPDATE CASCADE;
