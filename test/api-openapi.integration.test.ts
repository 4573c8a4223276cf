import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./helpers/tenant";

// GET /api/v1/openapi.json describes the API as implemented: every route file under
// app/api/v1 (method by method) is in the document and every operation in the document has a
// route file; every Svix path and method is there with Svix's operation id; every $ref resolves.

const ROOT = path.resolve(import.meta.dirname, "..");
const API_DIR = path.join(ROOT, "app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: object; "x-svix-compatible"?: boolean }>> };

/** "METHOD /api/v1/…/{param}" for every handler exported by a route file (the catch-all 404 excepted). */
function routeFileOperations(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts") {
        const rel = path.relative(API_DIR, dir).split(path.sep);
        if (rel.some((seg) => seg.startsWith("[..."))) continue; // JSON 404 for unknown paths
        const urlPath = ["/api/v1", ...rel.filter(Boolean).map((seg) => seg.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
        const text = readFileSync(full, "utf8");
        for (const m of METHODS) {
          const exported = new RegExp(`export\\s+(const|async function|function)\\s+${m}\\b`).test(text) || new RegExp(`\\bas\\s+${m}\\b`).test(text);
          if (exported) out.push(`${m} ${urlPath}`);
        }
      }
    }
  };
  walk(API_DIR);
  return out.sort();
}

describe("GET /api/v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document of exactly the routes that exist", async () => {
    const res = await fetch(`${baseUrl()}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    const documented = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    const files = routeFileOperations();
    expect(files.length).toBeGreaterThan(40);
    expect(documented.filter((op) => !files.includes(op)), "documented but no route file").toEqual([]);
    expect(files.filter((op) => !documented.includes(op)), "route file not documented").toEqual([]);
  });

  it("has every path and method of the Svix server's document, with Svix's operation ids", async () => {
    const doc = (await (await fetch(`${baseUrl()}/api/v1/openapi.json`)).json()) as Doc;
    const svix = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/svix-server-openapi.json"), "utf8")) as Doc;
    expect(Object.keys(svix.paths)).toHaveLength(26);
    for (const [p, ops] of Object.entries(svix.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        const ours = doc.paths[p]?.[method];
        expect(ours, `${method} ${p}`).toBeDefined();
        expect(ours!["x-svix-compatible"], `${method} ${p}`).toBe(true);
        // Svix's generator named three operations after their handlers; the SDKs use the v1.* names.
        if (op.operationId?.startsWith("v1.")) expect(ours!.operationId, `${method} ${p}`).toBe(op.operationId);
      }
  });

  it("resolves every $ref and gives every operation a unique id and responses", async () => {
    const doc = (await (await fetch(`${baseUrl()}/api/v1/openapi.json`)).json()) as Doc & Record<string, unknown>;
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object")
        for (const [k, v] of Object.entries(node)) {
          if (k === "$ref" && typeof v === "string") refs.push(v);
          else walk(v);
        }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const r of new Set(refs)) {
      let node: unknown = doc;
      for (const part of r.replace(/^#\//, "").split("/")) node = (node as Record<string, unknown> | undefined)?.[part];
      expect(node, r).toBeDefined();
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const ops of Object.values(doc.paths)) for (const o of Object.values(ops)) expect(Object.keys(o.responses).length).toBeGreaterThan(0);
  });
});
