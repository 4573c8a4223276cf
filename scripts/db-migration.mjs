#!/usr/bin/env node
// npm run db:migration -- <name> — writes the SQL that takes the last migrated schema
// (prisma/migrations/schema.snapshot.prisma) to prisma/schema.prisma, then updates the snapshot.
// (Prisma's wasm schema engine cannot diff a live database, so we diff two schema files.)
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fail, readDotEnv, root, run, step } from "./lib/shell.mjs";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) fail("usage: npm run db:migration -- <name in snake_case>");
const snapshot = path.join(root, "prisma/migrations/schema.snapshot.prisma");
const schema = path.join(root, "prisma/schema.prisma");
if (readFileSync(snapshot, "utf8") === readFileSync(schema, "utf8")) fail("schema.prisma has no changes since the last migration.");

const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = path.join(root, "prisma/migrations", `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
const env = { DATABASE_URL: process.env.DATABASE_URL ?? readDotEnv().DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" };
step(`diffing the snapshot against schema.prisma into ${path.relative(root, dir)}/migration.sql`);
try {
  run("npx", ["prisma", "migrate", "diff", "--from-schema-datamodel", snapshot, "--to-schema-datamodel", schema, "--script", "-o", path.join(dir, "migration.sql")], { quiet: true, env });
} catch (e) {
  rmSync(dir, { recursive: true, force: true });
  throw e;
}
if (!existsSync(path.join(dir, "migration.sql"))) fail("prisma wrote no migration");
copyFileSync(schema, snapshot);
console.log("Done. Review the SQL, then `npm run db:deploy` applies it.");
