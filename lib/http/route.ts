import { z } from "zod";
import { authenticate } from "../auth/authenticate";
import { authenticateSession } from "../auth/authenticate-session";
import { assertCanWrite, scopeOf, type Principal, type Scope } from "../auth/principal";
import { assertCapability, type Capability } from "../portal-access/capabilities";
import { logger } from "../logger";
import { outageOf } from "../outage";
import { WrongKeyError } from "../crypto/secret-box";
import { summarised } from "../queue/summarise-errors";
import { ApiError, invalid, ServiceUnavailableError, ValidationError } from "./errors";
import { answerRecord, claimIdempotencyKey, AnswerNotRecorded, idempotentRequest, requestFingerprint, type AnswerRecord } from "./idempotency";
import { parseJson, readBody } from "./read-body";
import { parseOr422 } from "./validation";
import type { RouteDoc } from "../openapi/route-doc";

// The one route builder: every /api/v1 handler is auth + zod parse + a call into lib/, and every
// error is rendered here, once. Handlers return plain data (sent as JSON with `status`), a
// Response, or `noContent`. The spec is also the route's entry in /api/v1/openapi.json: auth,
// params, query, body and `doc` (its words and success responses) are read from the handler's
// `definition` by lib/openapi/build-document.ts, so the document cannot drift from the route.

type AnyZod = z.ZodType;
type Infer<S> = S extends AnyZod ? z.infer<S> : undefined;

export type RouteSpec<P, Q, B> = {
  /**
   * "operator": API keys, or the session cookie of an environment member (the console).
   * "any": those, or a portal credential. "public": no auth.
   */
  auth: "operator" | "any" | "public";
  params?: P;
  query?: Q;
  body?: B;
  /** Success status when the handler returns data (default 200). */
  status?: number;
  /**
   * A mutation: refused for viewers (403) and honours `idempotency-key`; a portal session needs
   * the capability named here (`true`: "write", managing endpoints; lib/portal-access/capabilities.ts).
   * Read-only sessions have none of them.
   */
  write?: boolean | Capability;
  /**
   * The handler stores its answer to an `idempotency-key` in its own statement (ctx.answer, once
   * it knows the body it will return), so a publish makes one round trip, not three. Such a
   * handler must not fail after that statement; it throws AnswerNotRecorded when the statement
   * stored nothing (the key was taken, or an error to answer), and the request then goes through
   * the claim (replay, 409, take-over) with the handler run again, without a record.
   */
  recordsAnswer?: boolean;
  /** The operation in the OpenAPI document; null only for the JSON 404 of unknown paths. */
  doc: RouteDoc | null;
};

/** A route handler, carrying the spec it was built from (for the OpenAPI document). */
export type RouteHandler = ((req: Request, ctx: NextContext) => Promise<Response>) & {
  definition: RouteSpec<AnyZod | undefined, AnyZod | undefined, AnyZod | undefined>;
};

export type RouteContext<P, Q, B> = {
  req: Request;
  principal: Principal;
  scope: Scope;
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  /**
   * With `recordsAnswer` and an idempotency-key: the record of `body`, the answer the handler
   * will return with the route's status, for its statement to insert. Null otherwise.
   */
  answer: ((body: unknown) => AnswerRecord) | null;
};

export const noContent = Symbol("noContent");

/** Data with a status other than the route's default (e.g. 201 vs 200 for upserts). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const reply = (status: number, body: unknown) => new Reply(status, body);

type HandlerResult = unknown;

type NextContext = { params: Promise<Record<string, string | string[]>> };

const PUBLIC_PRINCIPAL: Principal = { kind: "operator", environmentId: "", via: "api_key", apiKeyId: null, userId: null, role: "owner" };

/** A bearer header wins; without one, the next-auth session cookie of an environment member. */
async function principalOf(req: Request): Promise<Principal> {
  const authorization = req.headers.get("authorization");
  if (!authorization && req.headers.has("cookie")) {
    const session = await authenticateSession(req);
    if (session) return session;
  }
  return authenticate(authorization);
}

export function route<P extends AnyZod | undefined, Q extends AnyZod | undefined, B extends AnyZod | undefined>(
  spec: RouteSpec<P, Q, B>,
  handler: (ctx: RouteContext<P, Q, B>) => Promise<HandlerResult>,
): RouteHandler {
  const serve = async (req: Request, ctx: NextContext): Promise<Response> => {
    try {
      const principal = spec.auth === "public" ? PUBLIC_PRINCIPAL : await principalOf(req);
      if (spec.auth === "operator" && principal.kind !== "operator")
        throw new ApiError(403, "forbidden", "This operation needs an operator API key");
      if (spec.write) {
        assertCanWrite(principal);
        assertCapability(principal, spec.write === true ? "write" : spec.write);
      }

      const rawParams = ctx ? await ctx.params : {};
      const params = (spec.params ? parseOr422(spec.params, rawParams, "path") : undefined) as Infer<P>;
      const url = new URL(req.url);
      const query = (spec.query ? parseOr422(spec.query, queryObject(url), "query") : undefined) as Infer<Q>;

      let text = "";
      let body = undefined as Infer<B>;
      if (spec.body) {
        text = await readBody(req);
        body = parseOr422(spec.body, parseJson(text), "body") as Infer<B>;
      }

      const run = (answer: RouteContext<P, Q, B>["answer"] = null) =>
        handler({ req, principal, scope: scopeOf(principal), params, query, body, answer });
      const respond = (result: unknown) => {
        if (result instanceof Response) return result;
        const { status, body: out } = settle(result, spec.status);
        return render(out, status);
      };

      const idemKey = req.headers.get("idempotency-key");
      if (spec.write && idemKey && req.method === "POST") {
        const request = idempotentRequest(
          principal.environmentId,
          idemKey,
          requestFingerprint(principal, req.method, `${url.pathname}?${url.searchParams.toString()}`, text),
        );
        if (spec.recordsAnswer) {
          const status = spec.status ?? 200;
          try {
            return respond(await run((out) => answerRecord(request, { status, body: out })));
          } catch (e) {
            if (!(e instanceof AnswerNotRecorded)) throw e;
          }
        }
        const claim = await claimIdempotencyKey(request);
        if (claim.kind === "replay") {
          const replayed = render(claim.response.body, claim.response.status);
          replayed.headers.set("idempotent-replayed", "true");
          return replayed;
        }
        try {
          const result = await run();
          if (result instanceof Response) {
            await claim.release();
            return result;
          }
          const { status, body: out } = settle(result, spec.status);
          await claim.complete({ status, body: out === noContent ? null : out });
          return render(out, status);
        } catch (e) {
          await claim.release();
          throw e;
        }
      }

      return respond(await run());
    } catch (e) {
      return errorResponse(e);
    }
  };
  return Object.assign(serve, { definition: spec });
}

function queryObject(url: URL): Record<string, string | string[]> {
  // Repeated keys (event_types=a&event_types=b) become arrays; `event_types[]` is accepted too.
  const out: Record<string, string | string[]> = {};
  for (const [rawKey, value] of url.searchParams) {
    const key = rawKey.endsWith("[]") ? rawKey.slice(0, -2) : rawKey;
    // PostgreSQL cannot compare text with U+0000 in it (a search would be a 500), as for bodies.
    if (value.includes("\u0000") || key.includes("\u0000"))
      throw invalid(["query", key.replaceAll("\u0000", "\\u0000")], "must not contain the NUL character (\\u0000)");
    const prev = out[key];
    out[key] = prev === undefined ? (rawKey.endsWith("[]") ? [value] : value) : [...[prev].flat(), value];
  }
  return out;
}

function settle(result: unknown, defaultStatus = 200): { status: number; body: unknown } {
  if (result instanceof Reply) return { status: result.status, body: result.body };
  return { status: result === noContent ? 204 : defaultStatus, body: result };
}

function render(result: unknown, status: number): Response {
  if (result === noContent || status === 204) return new Response(null, { status: 204 });
  return Response.json(result ?? {}, { status });
}

// During an outage every request fails the same way: log the first of each burst, not each one.
const outageLog = summarised("request answered 503: a store is unreachable");
const wrongKeyLog = summarised("request answered 503: HERALD_ENCRYPTION_KEY cannot open the database's secrets");

export function errorResponse(e: unknown): Response {
  if (e instanceof ValidationError) return Response.json({ detail: e.items }, { status: 422 });
  if (e instanceof ApiError)
    return Response.json({ code: e.code, detail: e.detail }, { status: e.status, headers: e.headers });
  // PostgreSQL or Redis unreachable (restart, failover, lost connections) is not a bug: a 503 that
  // says when to retry. Every route gets this here, and so does the direct publish path (server.ts).
  const outage = outageOf(e);
  if (outage) {
    outageLog(e instanceof Error ? e : new Error(String(e)));
    return errorResponse(new ServiceUnavailableError(outage));
  }
  if (e instanceof WrongKeyError) {
    wrongKeyLog(e);
    return Response.json({ code: "encryption_key_mismatch", detail: e.message }, { status: 503 });
  }
  logger.error({ err: e }, "unhandled error in route");
  return Response.json({ code: "internal_error", detail: "Internal server error" }, { status: 500 });
}
