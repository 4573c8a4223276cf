import { db } from "../db";

// Expired test URLs go with their endpoint (and so its deliveries, attempts and captured
// requests, by cascade). Run by the worker every few minutes.
export async function deleteExpiredCaptures(now = new Date()): Promise<number> {
  const expired = await db.captureInbox.findMany({ where: { expiresAt: { lte: now } }, select: { endpointId: true }, take: 1000 });
  if (expired.length === 0) return 0;
  const { count } = await db.endpoint.deleteMany({ where: { id: { in: expired.map((e) => e.endpointId) } } });
  return count;
}
