-- The portal delivery log search (lib/portal/search-messages.ts). Prisma schema language
-- cannot express these two indexes, so they live here only (schema.prisma says so on Message).

-- eventId prefix search: a plain btree serves a prefix LIKE only under the C collation, and the
-- database may have another, while the pattern operator class serves it under any.
CREATE INDEX "message_environment_id_event_id_pattern_idx" ON "message" ("environment_id", "event_id" text_pattern_ops);

-- Search inside payloads: trigrams of the payload JSON text, for ILIKE with a term of 3
-- characters or more. pg_trgm ships with PostgreSQL (contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "message_payload_trgm_idx" ON "message" USING gin (("payload"::text) gin_trgm_ops);
