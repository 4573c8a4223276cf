import { env } from "../env";
import { tokenSigner } from "./signed-token";

// URLs handed out with tasks. The status URL needs the caller's credentials; the events and
// result links carry a signed, expiring token scoped to one task, so a browser's EventSource or
// a plain download can use them without an Authorization header (and a leaked link is worth
// little: read-only, one task, minutes).

export type LinkScope = { environmentId: string; applicationId?: string | null };

const base = () => `${env().HERALD_PUBLIC_URL}/api/v1/tasks`;

export const statusUrl = (taskId: string) => `${base()}/${taskId}`;

function signedLink(taskId: string, purpose: "task-events" | "task-result", suffix: string, scope: LinkScope) {
  const token = tokenSigner().sign(
    purpose,
    { t: taskId, e: scope.environmentId, ...(scope.applicationId ? { a: scope.applicationId } : {}) },
    env().HERALD_SIGNED_LINK_TTL_S,
  );
  return `${base()}/${taskId}/${suffix}?token=${token}`;
}

export const eventsUrl = (taskId: string, scope: LinkScope) => signedLink(taskId, "task-events", "events", scope);
export const resultUrl = (taskId: string, scope: LinkScope) => signedLink(taskId, "task-result", "result", scope);

/** The scope a signed task link grants, or null when the token is not valid for this task. */
export function scopeFromLink(token: string, purpose: "task-events" | "task-result", taskId: string) {
  const v = tokenSigner().verify<{ t: string; e: string; a?: string }>(token, purpose);
  if (!v.ok || v.claims.t !== taskId) return { ok: false as const, reason: v.ok ? "another task" : v.reason };
  return {
    ok: true as const,
    scope: { environmentId: v.claims.e, ...(v.claims.a ? { applicationId: v.claims.a } : {}) },
  };
}
