import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderRouteModules } from "../../scripts/openapi-routes.mjs";

// The document lists the routes of lib/openapi/route-modules.ts; a route file missing from it
// would be missing from /api/v1/openapi.json.
describe("lib/openapi/route-modules.ts", () => {
  it("lists every route file under app/api/v1 (else: npm run openapi:routes)", () => {
    const committed = readFileSync(path.join(import.meta.dirname, "route-modules.ts"), "utf8");
    expect(committed, "route-modules.ts is stale: run `npm run openapi:routes` and commit it").toBe(renderRouteModules());
  });
});
