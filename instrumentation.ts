// Runs once when the web server boots (Node.js runtime only).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./lib/boot");
}
