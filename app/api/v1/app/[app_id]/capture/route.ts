import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { CaptureIn, createCapture, listCaptures } from "@/lib/capture/manage-captures";

// GET /api/v1/app/{app_id}/capture — the application's test URLs that have not expired
export const GET = route(
  {
    auth: "any",
    params: appParams,
    doc: { id: "herald.capture.list", tag: "Integrator tools", summary: "The application's test URLs (Herald-hosted endpoints that record what they receive)", responses: { 200: "ListResponse_CaptureOut_" } },
  },
  ({ scope, params }) => listCaptures(scope, params.app_id),
);

// POST /api/v1/app/{app_id}/capture — create a test URL: an endpoint Herald hosts, expiring after 72 h
export const POST = route(
  {
    auth: "any",
    write: true,
    status: 201,
    params: appParams,
    body: CaptureIn,
    doc: {
      id: "herald.capture.create",
      tag: "Integrator tools",
      summary: "Create a test URL: an endpoint that records every request it receives (at most 3 per application, 72 h)",
      description:
        "Deliveries to it go through the same pipeline, signing and attempt records as any endpoint; nothing leaves Herald. 409 capture_limit_reached when the application already has 3.",
      responses: { 201: "CaptureOut" },
    },
  },
  ({ scope, params, body }) => createCapture(scope, params.app_id, body),
);
