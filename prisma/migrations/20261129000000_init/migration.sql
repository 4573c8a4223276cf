-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "PayloadFormat" AS ENUM ('envelope', 'raw');

-- CreateEnum
CREATE TYPE "EndpointState" AS ENUM ('active', 'paused', 'disabled');

-- CreateEnum
CREATE TYPE "CircuitState" AS ENUM ('closed', 'open', 'half_open');

-- CreateEnum
CREATE TYPE "SigningAlgorithm" AS ENUM ('hmac_sha256', 'ed25519');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'sending', 'succeeded', 'failed', 'canceled');

-- CreateEnum
CREATE TYPE "AttemptStatus" AS ENUM ('success', 'fail');

-- CreateEnum
CREATE TYPE "TriggerType" AS ENUM ('scheduled', 'manual');

-- CreateEnum
CREATE TYPE "TaskStatus" AS ENUM ('pending', 'running', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "TaskKind" AS ENUM ('recover', 'replay', 'bulk_retry', 'export');

-- CreateTable
CREATE TABLE "environment" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "retry_schedule" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "environment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "application" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "uid" TEXT,
    "name" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "throttle_rate" INTEGER,
    "payload_format" "PayloadFormat" NOT NULL DEFAULT 'envelope',
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "portal_revoked_before" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "schemas" JSONB,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "feature_flag" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "event_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoint" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "uid" TEXT,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 1,
    "state" "EndpointState" NOT NULL DEFAULT 'active',
    "disabled_reason" TEXT,
    "state_changed_at" TIMESTAMP(3),
    "event_types" TEXT[],
    "channels" TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "throttle_rate" INTEGER,
    "headers_encrypted" TEXT,
    "retry_schedule" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "signing_algorithm" "SigningAlgorithm" NOT NULL DEFAULT 'hmac_sha256',
    "secret_encrypted" TEXT NOT NULL,
    "previous_secret_encrypted" TEXT,
    "previous_secret_expires_at" TIMESTAMP(3),
    "public_key" TEXT,
    "circuit_state" "CircuitState" NOT NULL DEFAULT 'closed',
    "circuit_opened_at" TIMESTAMP(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "failing_since" TIMESTAMP(3),
    "last_success_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "event_id" TEXT,
    "payload" JSONB,
    "previous" JSONB,
    "channels" TEXT[],
    "payload_retention_days" INTEGER NOT NULL DEFAULT 90,
    "replay_of_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "last_attempt_at" TIMESTAMP(3),
    "last_status_code" INTEGER,
    "dead_reason" TEXT,
    "dead_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attempt" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" "AttemptStatus" NOT NULL,
    "trigger_type" "TriggerType" NOT NULL DEFAULT 'scheduled',
    "request_headers" JSONB NOT NULL,
    "request_body" TEXT,
    "response_status" INTEGER NOT NULL DEFAULT 0,
    "response_headers" JSONB,
    "response_body" TEXT,
    "response_truncated" BOOLEAN NOT NULL DEFAULT false,
    "duration_ms" INTEGER NOT NULL,
    "error_class" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "application_id" TEXT,
    "endpoint_id" TEXT,
    "kind" "TaskKind" NOT NULL,
    "status" "TaskStatus" NOT NULL DEFAULT 'pending',
    "params" JSONB NOT NULL DEFAULT '{}',
    "cursor" TEXT,
    "done_count" INTEGER NOT NULL DEFAULT 0,
    "total_count" INTEGER,
    "result" JSONB,
    "error_code" TEXT,
    "error_message" TEXT,
    "callback_url" TEXT,
    "cancel_requested_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_token" (
    "id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "read_only" BOOLEAN NOT NULL DEFAULT false,
    "feature_flags" TEXT[],
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_session" (
    "id" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_record" (
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("environment_id","key")
);

-- CreateTable
CREATE TABLE "event_id_claim" (
    "environment_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_id_claim_pkey" PRIMARY KEY ("environment_id","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_key_hash_key" ON "api_key"("hash");

-- CreateIndex
CREATE INDEX "api_key_environment_id_idx" ON "api_key"("environment_id");

-- CreateIndex
CREATE INDEX "application_environment_id_id_idx" ON "application"("environment_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "application_environment_id_uid_key" ON "application"("environment_id", "uid");

-- CreateIndex
CREATE UNIQUE INDEX "event_type_environment_id_name_key" ON "event_type"("environment_id", "name");

-- CreateIndex
CREATE INDEX "endpoint_application_id_id_idx" ON "endpoint"("application_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "endpoint_application_id_uid_key" ON "endpoint"("application_id", "uid");

-- CreateIndex
CREATE INDEX "message_application_id_id_idx" ON "message"("application_id", "id");

-- CreateIndex
CREATE INDEX "message_application_id_event_type_id_idx" ON "message"("application_id", "event_type", "id");

-- CreateIndex
CREATE INDEX "message_environment_id_event_id_idx" ON "message"("environment_id", "event_id");

-- CreateIndex
CREATE INDEX "delivery_status_next_attempt_at_idx" ON "delivery"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "delivery_endpoint_id_status_id_idx" ON "delivery"("endpoint_id", "status", "id");

-- CreateIndex
CREATE INDEX "delivery_application_id_status_id_idx" ON "delivery"("application_id", "status", "id");

-- CreateIndex
CREATE INDEX "delivery_application_id_event_type_id_idx" ON "delivery"("application_id", "event_type", "id");

-- CreateIndex
CREATE INDEX "delivery_endpoint_id_id_idx" ON "delivery"("endpoint_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "delivery_message_id_endpoint_id_key" ON "delivery"("message_id", "endpoint_id");

-- CreateIndex
CREATE INDEX "attempt_application_id_id_idx" ON "attempt"("application_id", "id");

-- CreateIndex
CREATE INDEX "attempt_endpoint_id_id_idx" ON "attempt"("endpoint_id", "id");

-- CreateIndex
CREATE INDEX "attempt_message_id_id_idx" ON "attempt"("message_id", "id");

-- CreateIndex
CREATE INDEX "attempt_delivery_id_id_idx" ON "attempt"("delivery_id", "id");

-- CreateIndex
CREATE INDEX "attempt_application_id_event_type_id_idx" ON "attempt"("application_id", "event_type", "id");

-- CreateIndex
CREATE INDEX "attempt_application_id_status_id_idx" ON "attempt"("application_id", "status", "id");

-- CreateIndex
CREATE INDEX "attempt_application_id_response_status_id_idx" ON "attempt"("application_id", "response_status", "id");

-- CreateIndex
CREATE INDEX "task_environment_id_id_idx" ON "task"("environment_id", "id");

-- CreateIndex
CREATE INDEX "task_application_id_id_idx" ON "task"("application_id", "id");

-- CreateIndex
CREATE INDEX "task_endpoint_id_kind_status_idx" ON "task"("endpoint_id", "kind", "status");

-- CreateIndex
CREATE UNIQUE INDEX "portal_token_hash_key" ON "portal_token"("hash");

-- CreateIndex
CREATE INDEX "portal_token_application_id_idx" ON "portal_token"("application_id");

-- CreateIndex
CREATE UNIQUE INDEX "portal_session_hash_key" ON "portal_session"("hash");

-- CreateIndex
CREATE INDEX "portal_session_application_id_idx" ON "portal_session"("application_id");

-- CreateIndex
CREATE INDEX "idempotency_record_created_at_idx" ON "idempotency_record"("created_at");

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "application" ADD CONSTRAINT "application_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_type" ADD CONSTRAINT "event_type_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint" ADD CONSTRAINT "endpoint_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message" ADD CONSTRAINT "message_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery" ADD CONSTRAINT "delivery_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery" ADD CONSTRAINT "delivery_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attempt" ADD CONSTRAINT "attempt_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task" ADD CONSTRAINT "task_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_token" ADD CONSTRAINT "portal_token_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_session" ADD CONSTRAINT "portal_session_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "portal_token"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma cannot express partial indexes): at most one unfinished task of a kind per endpoint.
CREATE UNIQUE INDEX "task_one_active_per_endpoint_kind" ON "task"("endpoint_id", "kind") WHERE "status" IN ('pending', 'running') AND "endpoint_id" IS NOT NULL;
