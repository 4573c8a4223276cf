import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("prisma schema", () => {
  it("matches the snapshot of the last migration (run `npm run db:migration -- <name>` after editing it)", () => {
    const schema = readFileSync("prisma/schema.prisma", "utf8");
    const snapshot = readFileSync("prisma/migrations/schema.snapshot.prisma", "utf8");
    expect(schema).toBe(snapshot);
  });
});
