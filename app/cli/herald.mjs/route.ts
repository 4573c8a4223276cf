import { readFile } from "node:fs/promises";
import path from "node:path";

// GET /cli/herald.mjs — the `herald` CLI (bin/herald.mjs), so an integrator without this repository
// can run `curl -O $HERALD_URL/cli/herald.mjs && node herald.mjs listen …` (Node 20, no dependencies).
export async function GET(): Promise<Response> {
  const source = await readFile(path.join(process.cwd(), "bin", "herald.mjs"), "utf8");
  return new Response(source, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "content-disposition": 'inline; filename="herald.mjs"',
      "cache-control": "no-cache",
    },
  });
}
