import { defineConfig } from "@playwright/test";

// The e2e suite runs through `npm test` (scripts/test.mjs), which prepares the database and
// the test build; Playwright starts the server and worker itself (e2e/start-server.mjs).
// scripts/test.mjs picks a free port; the config is evaluated in several processes, so it must
// come from the environment rather than be computed here.
const port = Number(process.env.HERALD_E2E_PORT ?? 3900);
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/artifacts/results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: `node e2e/start-server.mjs ${port}`,
    url: `${baseURL}/api/v1/health/ping`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
