import { createHash } from "node:crypto";
import { z } from "zod";
import { env } from "../../env";
import { conflict, invalid } from "../../http/errors";
import type { Scope } from "../../auth/principal";
import { tokenSigner } from "../signed-token";
import { createTask } from "../create-task";
import { callbackFields } from "../task-callback";
import { countReplay, filterKey, resolveReplayFilter, ReplayFilterIn, type ReplayFilter } from "./replay-filter";

// Range replay: POST …/replay/estimate is a dry run that counts what a replay would create and
// signs that into a `confirmation` token; POST …/replay starts the task, and needs that token when
// it would create more deliveries than HERALD_REPLAY_CONFIRM_THRESHOLD. The token pins the time
// range (an open `until` becomes the estimate's moment), so confirming later replays exactly what
// was counted; if the data moved by more than STALE_TOLERANCE since, the request is refused.

export const CONFIRMATION_TTL_S = 30 * 60;
/** Allowed drift between the estimate's delivery count and the count at start, as a fraction. */
export const STALE_TOLERANCE = 0.1;

export const ReplayIn = ReplayFilterIn.extend({ confirmation: z.string().max(4096).nullish(), ...callbackFields });
export type ReplayIn = z.infer<typeof ReplayIn>;

type ConfirmClaims = { a: string; k: string; u: string; m: number; d: number };

const keyHash = (f: ReplayFilter) => createHash("sha256").update(filterKey(f)).digest("base64url");

export async function estimateReplay(scope: Scope, app: string, input: ReplayFilterIn) {
  const filter = await resolveReplayFilter(scope, app, input, new Date());
  const counts = await countReplay(filter);
  const threshold = env().HERALD_REPLAY_CONFIRM_THRESHOLD;
  const claims: ConfirmClaims = {
    a: filter.appId,
    k: keyHash(filter),
    u: filter.until,
    m: counts.messages,
    d: counts.deliveries,
  };
  return {
    messages: counts.messages,
    deliveries: counts.deliveries,
    endpoints: counts.endpoints,
    since: filter.since,
    until: filter.until,
    endpoint_id: filter.endpointId,
    threshold,
    confirmation_required: counts.deliveries > threshold,
    confirmation: tokenSigner().sign("replay-confirm", claims, CONFIRMATION_TTL_S),
    confirmation_expires_at: new Date(Date.now() + CONFIRMATION_TTL_S * 1000).toISOString(),
  };
}

function readConfirmation(token: string): ConfirmClaims {
  const v = tokenSigner().verify<ConfirmClaims>(token, "replay-confirm");
  if (v.ok) return v.claims;
  if (v.reason === "expired")
    throw conflict("The confirmation token has expired; run POST …/replay/estimate again", "confirmation_expired");
  throw invalid(["body", "confirmation"], "is not a confirmation token from POST …/replay/estimate");
}

export async function startReplay(scope: Scope, app: string, input: ReplayIn) {
  const confirmed = input.confirmation ? readConfirmation(input.confirmation) : null;
  const filter = await resolveReplayFilter(scope, app, input, confirmed ? new Date(confirmed.u) : new Date());
  if (confirmed && (confirmed.a !== filter.appId || confirmed.k !== keyHash(filter)))
    throw invalid(
      ["body", "confirmation"],
      "was issued for a different filter (time range, event types, channels, status or endpoint); estimate these filters again",
    );

  const counts = await countReplay(filter);
  const threshold = env().HERALD_REPLAY_CONFIRM_THRESHOLD;
  if (!confirmed && counts.deliveries > threshold)
    throw invalid(
      ["body", "confirmation"],
      `is required: this replay would create ${counts.deliveries} deliveries (${counts.messages} messages), more than ${threshold}; ` +
        "call POST …/replay/estimate with the same filters and pass its confirmation",
      "missing",
    );
  if (confirmed && Math.abs(counts.deliveries - confirmed.d) > Math.floor(confirmed.d * STALE_TOLERANCE))
    throw conflict(
      `The estimate is stale: it counted ${confirmed.m} messages and ${confirmed.d} deliveries, the data now gives ` +
        `${counts.messages} and ${counts.deliveries}; run the estimate again and confirm the new figures`,
      "estimate_stale",
    );

  return createTask(
    {
      environmentId: filter.environmentId,
      applicationId: filter.appId,
      endpointId: filter.endpointId,
      kind: "replay",
      params: { ...filter, estimate: counts },
      totalCount: counts.messages,
    },
    input,
  );
}
