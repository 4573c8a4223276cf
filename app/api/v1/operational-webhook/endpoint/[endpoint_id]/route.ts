import { z } from "zod";
import { noContent, route } from "@/lib/http/route";
import { zIdOrUid } from "@/lib/http/fields";
import { OperationalEndpointPatch, OperationalEndpointUpdate } from "@/lib/operational/schemas";
import {
  deleteOperationalEndpoint,
  getOperationalEndpoint,
  updateOperationalEndpoint,
} from "@/lib/operational/manage-operational-endpoints";

const params = z.object({ endpoint_id: zIdOrUid });

// GET /api/v1/operational-webhook/endpoint/{endpoint_id} — one operational endpoint
export const GET = route(
  {
    doc: {
      id: "herald.operational-webhook.get",
      tag: "Operational Webhook",
      summary: "One operational endpoint",
      responses: { 200: "OperationalEndpointOut" },
    },
    auth: "operator",
    params,
  },
  ({ scope, params }) => getOperationalEndpoint(scope.environmentId, params.endpoint_id),
);

// PUT /api/v1/operational-webhook/endpoint/{endpoint_id} — replace its settings
export const PUT = route(
  {
    doc: {
      id: "herald.operational-webhook.update",
      tag: "Operational Webhook",
      summary: "Replace its settings",
      responses: { 200: "OperationalEndpointOut" },
    },
    auth: "operator",
    write: true,
    params,
    body: OperationalEndpointUpdate,
  },
  ({ scope, params, body }) => updateOperationalEndpoint(scope.environmentId, params.endpoint_id, body, "put"),
);

// PATCH /api/v1/operational-webhook/endpoint/{endpoint_id} — change some settings; disabled pauses/resumes
export const PATCH = route(
  {
    doc: {
      id: "herald.operational-webhook.patch",
      tag: "Operational Webhook",
      summary: "Change some settings; disabled pauses or resumes",
      responses: { 200: "OperationalEndpointOut" },
    },
    auth: "operator",
    write: true,
    params,
    body: OperationalEndpointPatch,
  },
  ({ scope, params, body }) => updateOperationalEndpoint(scope.environmentId, params.endpoint_id, body, "patch"),
);

// DELETE /api/v1/operational-webhook/endpoint/{endpoint_id} — delete it and its delivery history
export const DELETE = route(
  {
    doc: {
      id: "herald.operational-webhook.delete",
      tag: "Operational Webhook",
      summary: "Delete it and its delivery history",
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params,
  },
  async ({ scope, params }) => {
    await deleteOperationalEndpoint(scope.environmentId, params.endpoint_id);
    return noContent;
  },
);
