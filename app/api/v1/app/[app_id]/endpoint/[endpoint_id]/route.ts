import { noContent, reply, route } from "@/lib/http/route";
import { endpointParams } from "@/lib/http/params";
import { EndpointPatch, EndpointUpdate } from "@/lib/endpoints/schemas";
import { deleteEndpoint, getEndpoint, patchEndpoint, upsertEndpoint } from "@/lib/endpoints/manage-endpoints";

// GET /api/v1/app/{app_id}/endpoint/{endpoint_id} — get an endpoint by id or uid
export const GET = route(
  {
    doc: {
      id: "v1.endpoint.get",
      tag: "Endpoint",
      summary: "Get an endpoint",
      svix: true,
      responses: { 200: "EndpointOut" },
    },
    auth: "any",
    params: endpointParams,
  },
  ({ scope, params }) => getEndpoint(scope, params.app_id, params.endpoint_id),
);

// PUT /api/v1/app/{app_id}/endpoint/{endpoint_id} — replace an endpoint's settings, creating it (201) when missing
export const PUT = route(
  {
    doc: {
      id: "v1.endpoint.update",
      tag: "Endpoint",
      summary: "Replace an endpoint's settings, creating it (201) when the uid does not exist",
      svix: true,
      responses: { 200: "EndpointOut", 201: "EndpointOut" },
    },
    auth: "any",
    write: true,
    params: endpointParams,
    body: EndpointUpdate,
  },
  async ({ scope, params, body }) => {
    const { created, endpoint } = await upsertEndpoint(scope, params.app_id, params.endpoint_id, body);
    return reply(created ? 201 : 200, endpoint);
  },
);

// PATCH /api/v1/app/{app_id}/endpoint/{endpoint_id} — update some settings; disabled pauses/resumes
export const PATCH = route(
  {
    doc: {
      id: "v1.endpoint.patch",
      tag: "Endpoint",
      summary: "Update some settings; disabled pauses or resumes",
      svix: true,
      responses: { 200: "EndpointOut" },
    },
    auth: "any",
    write: true,
    params: endpointParams,
    body: EndpointPatch,
  },
  ({ scope, params, body }) => patchEndpoint(scope, params.app_id, params.endpoint_id, body),
);

// DELETE /api/v1/app/{app_id}/endpoint/{endpoint_id} — delete an endpoint and its delivery history
export const DELETE = route(
  {
    doc: {
      id: "v1.endpoint.delete",
      tag: "Endpoint",
      summary: "Delete an endpoint and its delivery history (a new one with the same URL starts empty)",
      svix: true,
      responses: { 204: null },
    },
    auth: "any",
    write: true,
    params: endpointParams,
  },
  async ({ scope, params }) => {
    await deleteEndpoint(scope, params.app_id, params.endpoint_id);
    return noContent;
  },
);
