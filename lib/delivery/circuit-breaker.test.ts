import { describe, expect, it } from "vitest";
import { CIRCUIT_COOLDOWN_MAX_MS, circuitGate, circuitPhase, cooldownMs, nextProbeAt } from "./circuit-breaker";

describe("circuit breaker", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  const ago = (ms: number) => new Date(now - ms);

  it("lets deliveries through while closed", () => {
    expect(circuitGate({ circuitState: "closed", circuitOpenedAt: null, failingSince: null }, 30_000, now)).toBe(
      "closed",
    );
  });

  it("makes deliveries wait while open, then allows a probe after the cool-down", () => {
    const open = { circuitState: "open" as const, circuitOpenedAt: ago(10_000), failingSince: ago(60_000) };
    expect(circuitGate(open, 30_000, now)).toBe("wait");
    expect(circuitGate({ ...open, circuitOpenedAt: ago(31_000) }, 30_000, now)).toBe("probe");
  });

  it("probes a long outage less often, up to a limit", () => {
    expect(cooldownMs({ circuitState: "open", circuitOpenedAt: null, failingSince: ago(60_000) }, 30_000, now)).toBe(
      30_000,
    );
    expect(
      cooldownMs({ circuitState: "open", circuitOpenedAt: null, failingSince: ago(20 * 60_000) }, 30_000, now),
    ).toBe(5 * 60_000);
    expect(
      cooldownMs({ circuitState: "open", circuitOpenedAt: null, failingSince: ago(48 * 3600_000) }, 30_000, now),
    ).toBe(CIRCUIT_COOLDOWN_MAX_MS);
  });

  it("says when the next probe is due: the first instant the cool-down has passed", () => {
    const closed = { circuitState: "closed" as const, circuitOpenedAt: null, failingSince: null };
    expect(nextProbeAt(closed, 30_000)).toBeNull();
    // A short outage: the base cool-down after opening.
    const opened = ago(10_000);
    const short = { circuitState: "open" as const, circuitOpenedAt: opened, failingSince: ago(60_000) };
    expect(nextProbeAt(short, 30_000)!.getTime()).toBe(opened.getTime() + 30_000);
    // Failing for 20 min, opened 1 min ago: a quarter of the failing time once it is due
    // (t - opened = (t - failingSince) / 4, so t = opened + 20 s ... solved exactly).
    const long = { circuitState: "open" as const, circuitOpenedAt: ago(60_000), failingSince: ago(20 * 60_000) };
    const at = nextProbeAt(long, 30_000)!.getTime();
    expect(at - long.circuitOpenedAt.getTime()).toBeCloseTo(cooldownMs(long, 30_000, at), -1);
    // A long-dead endpoint: at most CIRCUIT_COOLDOWN_MAX_MS after opening.
    const dead = { circuitState: "open" as const, circuitOpenedAt: ago(1_000), failingSince: ago(48 * 3600_000) };
    expect(nextProbeAt(dead, 30_000)!.getTime()).toBe(dead.circuitOpenedAt.getTime() + CIRCUIT_COOLDOWN_MAX_MS);
  });

  it("agrees with the gate at every instant: wait before the next probe, probe from then on", () => {
    const cases = [
      { circuitState: "open" as const, circuitOpenedAt: ago(5_000), failingSince: ago(6_000) },
      { circuitState: "open" as const, circuitOpenedAt: ago(60_000), failingSince: ago(20 * 60_000) },
      { circuitState: "half_open" as const, circuitOpenedAt: ago(1_000), failingSince: ago(3 * 3600_000) },
      { circuitState: "open" as const, circuitOpenedAt: ago(1_000), failingSince: null },
    ];
    for (const ep of cases) {
      const at = nextProbeAt(ep, 30_000)!.getTime();
      expect(circuitGate(ep, 30_000, at - 1)).toBe("wait");
      expect(circuitGate(ep, 30_000, at)).toBe("probe");
      expect(circuitGate(ep, 30_000, at + 60_000)).toBe("probe");
      // The old rule, evaluated directly.
      const due = (t: number) => t >= ep.circuitOpenedAt.getTime() + cooldownMs(ep, 30_000, t);
      expect(due(at)).toBe(true);
      expect(due(at - 2)).toBe(false);
    }
  });

  it("says one word for the circuit in every view: open, or probing once the probe is due or under way", () => {
    expect(circuitPhase("closed", null, now)).toBe("closed");
    expect(circuitPhase("open", ago(-5_000), now)).toBe("open");
    expect(circuitPhase("open", ago(6_000).toISOString(), now)).toBe("probing"); // due: not "next probe 6 s ago"
    expect(circuitPhase("half_open", ago(-5_000), now)).toBe("probing");
  });
});
