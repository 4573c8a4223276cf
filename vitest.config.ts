import path from "node:path";
import { defineConfig } from "vitest/config";

// Run through `npm test` (scripts/test.mjs), which creates the test database and the build that
// the global setup starts as a real server, with a real worker.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "worker/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-env.ts"],
    pool: "forks",
    testTimeout: 30_000,
    // A suite's beforeAll starts its own web server and worker (and some a private database):
    // 20-40 s on a quiet machine, over 60 s when the machine is busy. Set-up time, not behaviour.
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
