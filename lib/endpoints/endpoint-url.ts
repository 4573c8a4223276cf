import { invalid } from "../http/errors";
import { addressPolicy } from "../services";
import { validateEndpointUrl } from "../ssrf/validate-url";

/** An endpoint's URL on create and update (customer and operational endpoints): 422 naming the rule. */
export async function requireEndpointUrl(url: string): Promise<string> {
  const verdict = await validateEndpointUrl(url, addressPolicy());
  if (!verdict.ok) throw invalid(["body", "url"], `URL ${verdict.reason}`);
  return verdict.url.toString();
}

/**
 * An update's URL: the endpoint's own URL, sent back unchanged (as an edit form does), is kept
 * as it is. It was checked when it was set, or Herald wrote it itself (a test URL's
 * `herald-capture:`, a `herald listen` endpoint's `herald-listen:`), so saving a form that
 * changed only the description must not be refused over the URL.
 */
export async function requireUpdatedUrl(current: string, url: string): Promise<string> {
  return url === current ? current : requireEndpointUrl(url);
}
