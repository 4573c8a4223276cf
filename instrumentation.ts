// Runs once when the web server boots (Node.js runtime only).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    await import("./lib/boot");
    // HERALD_BOOTSTRAP_* applied in the background; /api/v1/health says 503 until done.
    (await import("./lib/health/readiness")).startBootstrap();
  }
}
