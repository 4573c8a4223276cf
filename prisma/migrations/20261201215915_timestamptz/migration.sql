-- Every timestamp column becomes timestamptz(3). The old columns hold UTC wall-clock times, so
-- each value is read AT TIME ZONE 'UTC': the instants stay right whatever the server's or the
-- migrating session's TimeZone (Prisma's generated SET DATA TYPE alone would read them in the
-- session's zone, nine hours off on a server set to Asia/Tokyo). Each table is rewritten once.

-- AlterTable
ALTER TABLE "environment" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "api_key" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "last_used_at" SET DATA TYPE TIMESTAMPTZ(3) USING "last_used_at" AT TIME ZONE 'UTC',
ALTER COLUMN "revoked_at" SET DATA TYPE TIMESTAMPTZ(3) USING "revoked_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "application" ALTER COLUMN "portal_revoked_before" SET DATA TYPE TIMESTAMPTZ(3) USING "portal_revoked_before" AT TIME ZONE 'UTC',
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "event_type" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "endpoint" ALTER COLUMN "state_changed_at" SET DATA TYPE TIMESTAMPTZ(3) USING "state_changed_at" AT TIME ZONE 'UTC',
ALTER COLUMN "previous_secret_expires_at" SET DATA TYPE TIMESTAMPTZ(3) USING "previous_secret_expires_at" AT TIME ZONE 'UTC',
ALTER COLUMN "circuit_opened_at" SET DATA TYPE TIMESTAMPTZ(3) USING "circuit_opened_at" AT TIME ZONE 'UTC',
ALTER COLUMN "failing_since" SET DATA TYPE TIMESTAMPTZ(3) USING "failing_since" AT TIME ZONE 'UTC',
ALTER COLUMN "last_success_at" SET DATA TYPE TIMESTAMPTZ(3) USING "last_success_at" AT TIME ZONE 'UTC',
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "message" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "delivery" ALTER COLUMN "next_attempt_at" SET DATA TYPE TIMESTAMPTZ(3) USING "next_attempt_at" AT TIME ZONE 'UTC',
ALTER COLUMN "last_attempt_at" SET DATA TYPE TIMESTAMPTZ(3) USING "last_attempt_at" AT TIME ZONE 'UTC',
ALTER COLUMN "dead_at" SET DATA TYPE TIMESTAMPTZ(3) USING "dead_at" AT TIME ZONE 'UTC',
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "attempt" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "task" ALTER COLUMN "notified_at" SET DATA TYPE TIMESTAMPTZ(3) USING "notified_at" AT TIME ZONE 'UTC',
ALTER COLUMN "cancel_requested_at" SET DATA TYPE TIMESTAMPTZ(3) USING "cancel_requested_at" AT TIME ZONE 'UTC',
ALTER COLUMN "lease_until" SET DATA TYPE TIMESTAMPTZ(3) USING "lease_until" AT TIME ZONE 'UTC',
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "started_at" SET DATA TYPE TIMESTAMPTZ(3) USING "started_at" AT TIME ZONE 'UTC',
ALTER COLUMN "completed_at" SET DATA TYPE TIMESTAMPTZ(3) USING "completed_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "portal_token" ALTER COLUMN "expires_at" SET DATA TYPE TIMESTAMPTZ(3) USING "expires_at" AT TIME ZONE 'UTC',
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "portal_session" ALTER COLUMN "expires_at" SET DATA TYPE TIMESTAMPTZ(3) USING "expires_at" AT TIME ZONE 'UTC',
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "idempotency_record" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "event_id_claim" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';
