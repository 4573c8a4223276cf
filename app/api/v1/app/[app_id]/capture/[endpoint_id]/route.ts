import { noContent, route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { CapturePatch, deleteCapture, getCapture, setCaptureAnswer } from "@/lib/capture/manage-captures";

// GET /api/v1/app/{app_id}/capture/{endpoint_id} — a test URL with the requests it received and their signature check
export const GET = route(
  {
    auth: "any",
    params: endpointParams,
    doc: { id: "herald.capture.get", tag: "Integrator tools", summary: "A test URL with the requests it received (newest first), each with its headers, body and signature check", responses: { 200: "CaptureDetailOut" } },
  },
  ({ scope, params }) => getCapture(scope, params.app_id, params.endpoint_id),
);

// PATCH /api/v1/app/{app_id}/capture/{endpoint_id} — set how it answers: ok (200), error (500), slow (times out)
export const PATCH = route(
  {
    auth: "any",
    write: true,
    params: endpointParams,
    body: CapturePatch,
    doc: { id: "herald.capture.set-answer", tag: "Integrator tools", summary: "Set how the test URL answers (ok: 200, error: 500, slow: no answer in time), to watch retries", responses: { 200: "CaptureDetailOut" } },
  },
  ({ scope, params, body }) => setCaptureAnswer(scope, params.app_id, params.endpoint_id, body),
);

// DELETE /api/v1/app/{app_id}/capture/{endpoint_id} — delete the test URL with its endpoint and history
export const DELETE = route(
  {
    auth: "any",
    write: true,
    params: endpointParams,
    doc: { id: "herald.capture.delete", tag: "Integrator tools", summary: "Delete the test URL, its endpoint and their delivery history", responses: { 204: null } },
  },
  async ({ scope, params }) => {
    await deleteCapture(scope, params.app_id, params.endpoint_id);
    return noContent;
  },
);
