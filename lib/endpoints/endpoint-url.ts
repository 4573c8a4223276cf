import { invalid } from "../http/errors";
import { addressPolicy } from "../services";
import { validateEndpointUrl } from "../ssrf/validate-url";

/** An endpoint's URL on create and update (customer and operational endpoints): 422 naming the rule. */
export async function requireEndpointUrl(url: string): Promise<string> {
  const verdict = await validateEndpointUrl(url, addressPolicy());
  if (!verdict.ok) throw invalid(["body", "url"], `URL ${verdict.reason}`);
  return verdict.url.toString();
}
