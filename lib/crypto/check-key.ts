import { db } from "../db";
import { secretBox } from "../services";
import { WrongKeyError } from "./secret-box";

// Whether this process's HERALD_ENCRYPTION_KEY opens the secrets already in the database. Run by
// `npm run up` before it starts anything: a checkout whose .env was just generated, pointed at
// another installation's database (the default DATABASE_URL is the same for every checkout),
// would otherwise fail every delivery and answer 503s for every secret, and its demo set-up would
// rewrite the other installation's demo endpoints.

/** Endpoint secrets tried; all of them failing means the key is not this database's. */
const SAMPLE = 5;

/**
 * "mismatch" only when every secret tried is one this key cannot open; "unknown" when the database
 * cannot tell (not migrated yet, or no secret in the form this version seals).
 */
export async function checkEncryptionKey(): Promise<"empty" | "ok" | "mismatch" | "unknown"> {
  // Run before the migrations: a new database has no endpoint table yet.
  const [table] = await db.$queryRaw<{ exists: boolean }[]>`SELECT to_regclass('endpoint') IS NOT NULL AS exists`;
  if (!table?.exists) return "empty";
  const rows = await db.$queryRaw<{ sealed: string }[]>`
    SELECT secret_encrypted AS sealed FROM endpoint ORDER BY id DESC LIMIT ${SAMPLE}`;
  if (rows.length === 0) return "empty";
  let wrongKey = 0;
  for (const { sealed } of rows) {
    try {
      secretBox().open(sealed);
      return "ok";
    } catch (e) {
      if (e instanceof WrongKeyError) wrongKey++;
    }
  }
  return wrongKey === rows.length ? "mismatch" : "unknown";
}
