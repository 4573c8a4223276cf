// Typed errors thrown from lib/ and rendered once, by the route builder, as Svix-compatible
// bodies: {"code","detail"} for most, {"detail":[{loc,msg,type}]} for 422 validation errors.

export type ValidationItem = { loc: (string | number)[]; msg: string; type: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export class ValidationError extends Error {
  readonly status = 422;
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; "));
  }
}

export const badRequest = (detail: string, code = "bad_request") => new ApiError(400, code, detail);
export const unauthorized = (detail = "Missing or invalid API key") =>
  new ApiError(401, "authentication_failed", detail);
export const forbidden = (detail: string) => new ApiError(403, "forbidden", detail);
export const notFound = (what = "Entity") => new ApiError(404, "not_found", `${what} not found`);
export const conflict = (detail: string, code = "conflict") => new ApiError(409, code, detail);
export const tooLarge = (detail: string) => new ApiError(413, "payload_too_large", detail);

/** Seconds a client is asked to wait (Retry-After) while PostgreSQL or Redis is unreachable. */
export const RETRY_AFTER_S = 5;

/**
 * PostgreSQL or Redis is unreachable (restart, failover, lost connections): nothing was wrong with
 * the request and retrying it soon works. Raised by the route builder for errors that `outageOf`
 * recognises (lib/outage.ts); domain code never needs to throw it itself.
 */
export class ServiceUnavailableError extends ApiError {
  constructor(readonly what: "database" | "redis") {
    super(
      503,
      "service_unavailable",
      what === "database"
        ? `The database is unreachable right now (restarting or failing over); retry in ${RETRY_AFTER_S} s`
        : `The queue (Redis) is unreachable right now (restarting or failing over); retry in ${RETRY_AFTER_S} s`,
      { "retry-after": String(RETRY_AFTER_S) },
    );
  }
}

/** A single-field 422, for rules zod cannot express (e.g. an unknown event type). */
export function invalid(loc: (string | number)[], msg: string, type = "value_error"): ValidationError {
  return new ValidationError([{ loc, msg, type }]);
}
