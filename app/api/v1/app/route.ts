import { reply, route } from "@/lib/http/route";
import { getIfExistsQuery } from "@/lib/http/params";
import { listQuery } from "@/lib/http/pagination";
import { ApplicationIn } from "@/lib/applications/schemas";
import { createApplication, listApplications } from "@/lib/applications/manage-applications";

// GET /api/v1/app — list applications
export const GET = route(
  {
    doc: {
      id: "v1.application.list",
      tag: "Application",
      summary: "List applications",
      svix: true,
      responses: { 200: "ListResponse_ApplicationOut_" },
    },
    auth: "any",
    query: listQuery,
  },
  ({ scope, query }) => listApplications(scope, query),
);

// POST /api/v1/app — create an application (get_if_exists returns the one with the same uid)
export const POST = route(
  {
    doc: {
      id: "v1.application.create",
      tag: "Application",
      summary: "Create an application (get_if_exists=true returns the one with the same uid, 200)",
      svix: true,
      responses: { 200: "ApplicationOut", 201: "ApplicationOut" },
    },
    auth: "operator",
    write: true,
    body: ApplicationIn,
    query: getIfExistsQuery,
  },
  async ({ scope, body, query }) => {
    const { created, app } = await createApplication(scope, body, query.get_if_exists);
    return reply(created ? 201 : 200, app);
  },
);
