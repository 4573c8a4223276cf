// Run by `npm run up` before it starts the web server and the worker: exits 1, saying what to
// do, when HERALD_ENCRYPTION_KEY cannot open the database's secrets (lib/crypto/check-key.ts).
import { checkEncryptionKey } from "../lib/crypto/check-key";
import { db } from "../lib/db";

const verdict = await checkEncryptionKey();
await db.$disconnect();
if (verdict === "mismatch") {
  const name = new URL(process.env.DATABASE_URL ?? "postgresql://x/herald").pathname.slice(1);
  console.error(`
✖ The database "${name}" holds endpoint secrets sealed with another HERALD_ENCRYPTION_KEY than
  this checkout's. It belongs to another Herald installation (or this one's key was lost).
  Either use that installation's key: put its HERALD_ENCRYPTION_KEY into .env here;
  or give this checkout its own database and Redis prefix in .env here (npm run worker, npm start
  and npm run api-key read them from there too), e.g.
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/herald_2
    HERALD_REDIS_PREFIX=herald2
  then npm run up again. Nothing was started.`);
  process.exit(1);
}
process.exit(0);
