// Keeps `npm run up`'s processes running: a child that dies (a crash, the OOM killer, a kill -9)
// is started again after a back-off that doubles with each quick death (1 s, 2 s, 4 s … 30 s)
// and starts over once it has run for a minute, with a line saying so; the other children keep
// running meanwhile. Only stop() (Ctrl-C) ends them all.
import { spawn } from "node:child_process";

export function createSupervisor({
  spawnOptions = {},
  log = (line) => console.error(line),
  minMs = 1_000,
  maxMs = 30_000,
  healthyAfterMs = 60_000,
} = {}) {
  const children = new Map();
  let stopping = false;

  function start(name, cmd, args, extraEnv = {}, failures = 0) {
    const startedAt = Date.now();
    const child = spawn(cmd, args, { ...spawnOptions, env: { ...(spawnOptions.env ?? process.env), ...extraEnv } });
    child.on("exit", (code, signal) => {
      if (stopping) return;
      const quick = Date.now() - startedAt < healthyAfterMs;
      const n = quick ? failures + 1 : 1;
      const delay = Math.min(maxMs, minMs * 2 ** (n - 1));
      log(`${name} exited (${code ?? signal}); restarting it in ${delay / 1000} s (restart ${n}${quick ? " in a row" : ""})`);
      const timer = setTimeout(() => {
        if (!stopping) start(name, cmd, args, extraEnv, n);
      }, delay);
      children.set(name, { child: null, timer });
    });
    children.set(name, { child, timer: null });
    return child;
  }

  /** SIGTERM to every child (SIGKILL after `graceMs`); resolves when all have exited. */
  function stop(graceMs = 25_000) {
    stopping = true;
    const running = [];
    for (const { child, timer } of children.values()) {
      if (timer) clearTimeout(timer);
      if (child && child.exitCode === null && child.signalCode === null) running.push(child);
    }
    for (const c of running) c.kill("SIGTERM");
    const deadline = setTimeout(() => {
      for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    }, graceMs);
    deadline.unref();
    return Promise.all(running.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once("exit", r)))));
  }

  /** The child currently running under `name` (null while it waits to be restarted). */
  const current = (name) => children.get(name)?.child ?? null;

  return { start, stop, current, get stopping() { return stopping; } };
}
