import { reply, route, noContent } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { ApplicationIn, ApplicationPatch } from "@/lib/applications/schemas";
import { findApplication } from "@/lib/applications/find-application";
import { serializeApplication } from "@/lib/applications/serialize";
import { deleteApplication, patchApplication, upsertApplication } from "@/lib/applications/manage-applications";

// GET /api/v1/app/{app_id} — get an application by id or uid
export const GET = route(
  {
    doc: {
      id: "v1.application.get",
      tag: "Application",
      summary: "Get an application",
      svix: true,
      responses: { 200: "ApplicationOut" },
    },
    auth: "any",
    params: appParams,
  },
  async ({ scope, params }) => serializeApplication(await findApplication(scope, params.app_id)),
);

// PUT /api/v1/app/{app_id} — replace an application, creating it (201) when missing
export const PUT = route(
  {
    doc: {
      id: "v1.application.update",
      tag: "Application",
      summary: "Replace an application, creating it (201) when the uid does not exist",
      svix: true,
      responses: { 200: "ApplicationOut", 201: "ApplicationOut" },
    },
    auth: "operator",
    write: true,
    params: appParams,
    body: ApplicationIn,
  },
  async ({ scope, params, body }) => {
    const { created, app } = await upsertApplication(scope, params.app_id, body);
    return reply(created ? 201 : 200, app);
  },
);

// PATCH /api/v1/app/{app_id} — update some fields of an application
export const PATCH = route(
  {
    doc: {
      id: "v1.application.patch",
      tag: "Application",
      summary: "Update some fields of an application",
      svix: true,
      responses: { 200: "ApplicationOut" },
    },
    auth: "operator",
    write: true,
    params: appParams,
    body: ApplicationPatch,
  },
  ({ scope, params, body }) => patchApplication(scope, params.app_id, body),
);

// DELETE /api/v1/app/{app_id} — delete an application with its endpoints and messages
export const DELETE = route(
  {
    doc: {
      id: "v1.application.delete",
      tag: "Application",
      summary: "Delete an application with its endpoints, messages and delivery history",
      svix: true,
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params: appParams,
  },
  async ({ scope, params }) => {
    await deleteApplication(scope, params.app_id);
    return noContent;
  },
);
