import { describe, expect, it } from "vitest";
import { CIRCUIT_COOLDOWN_MAX_MS, circuitGate, cooldownMs } from "./circuit-breaker";

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
});
