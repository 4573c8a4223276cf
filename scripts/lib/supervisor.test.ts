import { afterEach, describe, expect, it } from "vitest";
import { createSupervisor, type Supervisor } from "./supervisor.mjs";

// npm run up's supervisor with real child processes (node itself): a child that dies is started
// again with a doubling back-off and a log line, the others keep running, a kill -9 is survived,
// and stop() ends everything without restarting anything.

const node = process.execPath;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (s: Supervisor, name: string) => {
  const c = s.current(name);
  return Boolean(c && c.exitCode === null && c.signalCode === null);
};

describe("npm run up's supervisor", () => {
  let s: Supervisor | undefined;
  afterEach(async () => {
    await s?.stop(1_000);
  });

  it("restarts a child that keeps crashing with a doubling back-off, and leaves the others running", async () => {
    const lines: string[] = [];
    s = createSupervisor({ log: (l) => lines.push(l), minMs: 100, maxMs: 400, healthyAfterMs: 10_000 });
    s.start("crasher", node, ["-e", "setTimeout(() => process.exit(3), 20)"]);
    const steady = s.start("steady", node, ["-e", "setInterval(() => {}, 1000)"]);
    const deadline = Date.now() + 10_000;
    while (lines.length < 4 && Date.now() < deadline) await sleep(50);
    expect(lines.slice(0, 4)).toEqual([
      "crasher exited (3); restarting it in 0.1 s (restart 1 in a row)",
      "crasher exited (3); restarting it in 0.2 s (restart 2 in a row)",
      "crasher exited (3); restarting it in 0.4 s (restart 3 in a row)",
      "crasher exited (3); restarting it in 0.4 s (restart 4 in a row)",
    ]);
    expect(s.current("steady")).toBe(steady);
    expect(alive(s, "steady")).toBe(true);
  });

  it("starts a child killed with SIGKILL again, and the back-off starts over after it ran long enough", async () => {
    const lines: string[] = [];
    s = createSupervisor({ log: (l) => lines.push(l), minMs: 100, healthyAfterMs: 300 });
    const first = s.start("worker", node, ["-e", "setInterval(() => {}, 1000)"]);
    await sleep(500); // longer than healthyAfterMs: this death is not "in a row"
    first.kill("SIGKILL");
    const deadline = Date.now() + 5_000;
    while (!(alive(s, "worker") && s.current("worker") !== first) && Date.now() < deadline) await sleep(50);
    expect(lines).toEqual(["worker exited (SIGKILL); restarting it in 0.1 s (restart 1)"]);
    expect(s.current("worker")).not.toBe(first);
    expect(alive(s, "worker")).toBe(true);
  });

  it("stop() ends every child and restarts none of them", async () => {
    const lines: string[] = [];
    s = createSupervisor({ log: (l) => lines.push(l), minMs: 50 });
    const a = s.start("a", node, ["-e", "setInterval(() => {}, 1000)"]);
    const b = s.start("b", node, ["-e", "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"]);
    await new Promise((r) => b.stdout!.once("data", r)); // its SIGTERM handler is in place
    await s.stop(500); // b ignores SIGTERM: it gets SIGKILL after the grace period
    expect(a.signalCode).toBe("SIGTERM");
    expect(b.signalCode).toBe("SIGKILL");
    await sleep(300);
    expect(lines).toEqual([]);
    expect(alive(s, "a") || alive(s, "b")).toBe(false);
  });
});
