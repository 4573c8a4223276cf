// Small helpers for the setup scripts (up, test). Plain Node, no dependencies: they run before
// node_modules exists.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const color = (code) => (s) => (process.stdout.isTTY ? `\x1b[${code}m${s}\x1b[0m` : s);
export const bold = color("1");
export const dim = color("2");
export const green = color("32");
export const red = color("31");
export const yellow = color("33");

export function step(msg) {
  console.log(`${dim("›")} ${msg}`);
}

export function fail(msg) {
  console.error(`\n${red("✖")} ${msg}\n`);
  process.exit(1);
}

export function has(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

export function isRoot() {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

export function isDebian() {
  return existsSync("/etc/debian_version") && has("apt-get");
}

/** Runs a command, inheriting stdio unless quiet; throws on a non-zero exit. */
export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, {
    cwd: root,
    stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
  });
  if (res.status !== 0) {
    const out = opts.quiet ? `\n${res.stdout ?? ""}${res.stderr ?? ""}` : "";
    throw new Error(`${cmd} ${args.join(" ")} exited with ${res.status ?? res.signal}${out}`);
  }
  return res.stdout ?? "";
}

export function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...opts.env } });
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code ?? signal}`)),
    );
  });
}

export function fileHash(files) {
  const h = createHash("sha256");
  for (const f of files) {
    const p = path.join(root, f);
    if (existsSync(p)) h.update(f).update(readFileSync(p));
  }
  return h.digest("hex");
}

/** Reads KEY=value lines (no expansion); quotes are stripped. */
export function readDotEnv(file = path.join(root, ".env")) {
  if (!existsSync(file)) return {};
  const out = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (m) out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, "$2");
  }
  return out;
}

export function appendDotEnv(entries, comment) {
  const file = path.join(root, ".env");
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lines = Object.entries(entries).map(([k, v]) => `${k}=${v}`);
  const block = `${existing && !existing.endsWith("\n") ? "\n" : ""}${comment ? `# ${comment}\n` : ""}${lines.join("\n")}\n`;
  writeFileSync(file, existing + block, { mode: 0o600 });
}

export function randomKey() {
  return randomBytes(32).toString("base64");
}

/** Installs npm dependencies when node_modules is missing or the lock file changed. */
export function ensureDependencies() {
  const stamp = path.join(root, "node_modules", ".herald-lock-hash");
  const want = fileHash(["package-lock.json", "package.json"]);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return;
  step("installing dependencies (npm ci)");
  run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
  writeFileSync(stamp, want);
}

/** prisma generate, when the schema changed since the last generation. */
export function ensurePrismaClient(env) {
  const stamp = path.join(root, "lib", "generated", ".schema-hash");
  const want = fileHash(["prisma/schema.prisma", "package-lock.json"]);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return;
  step("generating the Prisma client");
  // The CLI fetches a native query engine before generating, although engineType "client" never
  // loads one (queries compile in WebAssembly); offline that download fails the generation. A
  // placeholder path makes it skip the download; the generated client is the same.
  const placeholder = path.join(root, "lib", "generated", ".no-native-query-engine");
  mkdirSync(path.dirname(placeholder), { recursive: true });
  writeFileSync(placeholder, "");
  const engine = process.env.PRISMA_QUERY_ENGINE_LIBRARY ?? placeholder;
  run("npx", ["prisma", "generate"], { quiet: true, env: { ...env, PRISMA_QUERY_ENGINE_LIBRARY: engine } });
  writeFileSync(stamp, want);
}

/**
 * `next build` adds its build folder's type globs to tsconfig.json. Test and bench builds use
 * throwaway folders (.next-test-*, .next-bench-*), so their entries are removed again; this
 * filters rather than restores, so concurrent runs cannot resurrect each other's entries.
 */
export function pruneBuildIncludes() {
  const file = path.join(root, "tsconfig.json");
  const config = JSON.parse(readFileSync(file, "utf8"));
  const include = (config.include ?? []).filter((p) => !/^\.next-[^/]+\//.test(p));
  if (include.length === (config.include ?? []).length) return;
  config.include = include;
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
}
