import { route } from "@/lib/http/route";
import { ApplicationSummaryQuery, listApplicationSummaries } from "@/lib/applications/application-summaries";

// GET /api/v1/environment/app-summary — applications (newest first, searchable) with their last 24 h (delivered, dead, success rate) and their deliveries failing or held now
export const GET = route(
  {
    doc: {
      id: "herald.environment.app-summary",
      tag: "Environment",
      summary:
        "Applications, newest first, with their delivery success rate over 24 h; `search` matches a name (substring, any case), a uid or an id",
      responses: { 200: "ListResponse_ApplicationSummaryOut_" },
    },
    auth: "operator",
    query: ApplicationSummaryQuery,
  },
  ({ scope, query }) => listApplicationSummaries(scope, query),
);
