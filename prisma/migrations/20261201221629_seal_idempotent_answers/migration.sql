-- Idempotent answers are stored sealed (AES-256-GCM with HERALD_ENCRYPTION_KEY) instead of as
-- plain JSON: the answer of app-portal-access is a working portal link, and the 202 of a task can
-- hold a generated callback secret. The plain records go (they are kept 24 h anyway): a retry
-- across this upgrade with an earlier key runs its request again.
DELETE FROM "idempotency_record";

-- AlterTable
ALTER TABLE "idempotency_record" DROP COLUMN "response_body",
ADD COLUMN     "response_sealed" TEXT;
