import { expect } from "vitest";
import type { Stack } from "./stack";
import type { Receiver } from "./receiver";
import { waitUntil } from "./delivery";

/**
 * Every delivery of the app succeeded (there are `count`); every one reached its endpoint's path
 * (`/webhook/<index in endpoints>`) at least once; every attempt the database recorded as sent
 * was seen by the receiver (same signature), and nothing arrived that the database does not know.
 */
export async function expectDatabaseAgreesWithReceiver(
  s: Stack,
  appId: string,
  endpoints: string[],
  rx: Receiver,
  count: number,
  timeoutMs = 120_000,
) {
  await waitUntil(
    `all ${count} deliveries to succeed`,
    () => s.db.delivery.count({ where: { applicationId: appId, status: "succeeded" } }),
    (n) => n === count,
    timeoutMs,
  );
  expect(await s.db.delivery.count({ where: { applicationId: appId } })).toBe(count);
  const pathOf = new Map(endpoints.map((id, i) => [id, `/webhook/${i}`]));
  const seen = new Map<string, number>(); // path|webhook-id|signature -> receipts
  for (const r of rx.received) {
    const key = `${r.path}|${r.headers["webhook-id"]}|${r.headers["webhook-signature"]}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const deliveries = await s.db.delivery.findMany({ where: { applicationId: appId }, select: { messageId: true, endpointId: true } });
  const receivedIds = new Set(rx.received.map((r) => `${r.path}|${r.headers["webhook-id"]}`));
  for (const d of deliveries) expect(receivedIds.has(`${pathOf.get(d.endpointId)}|${d.messageId}`)).toBe(true);
  expect(receivedIds.size).toBe(count);

  const attempts = await s.db.attempt.findMany({
    where: { applicationId: appId, OR: [{ errorClass: null }, { errorClass: { not: "interrupted" } }] },
    select: { endpointId: true, messageId: true, requestHeaders: true, status: true },
  });
  const recorded = new Map<string, number>();
  for (const a of attempts) {
    const sig = (a.requestHeaders as Record<string, string>)["webhook-signature"];
    const key = `${pathOf.get(a.endpointId)}|${a.messageId}|${sig}`;
    recorded.set(key, (recorded.get(key) ?? 0) + 1);
  }
  for (const [key, n] of recorded) expect(seen.get(key) ?? 0, key).toBeGreaterThanOrEqual(n);
  // Each delivery has exactly one successful attempt.
  expect(attempts.filter((a) => a.status === "success")).toHaveLength(count);
  expect(await s.db.delivery.count({ where: { applicationId: appId, status: "sending" } })).toBe(0);
}
