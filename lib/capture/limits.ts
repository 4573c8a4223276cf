// Test URLs are throwaway: a few per application, for a few days, with a bounded history.
export const CAPTURE_LIMITS = {
  perApplication: 3,
  ttlHours: 72,
  requestsKept: 50,
} as const;
