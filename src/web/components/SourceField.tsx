/**
 * On a page answering a form posted without JavaScript, the lead source the
 * server took for that post (ADR 052), carried by the form so that sending it
 * again keeps it: the answer page's address has lost the first page's query.
 * Cached pages never have it (nothing was posted).
 */
import type { LeadSource } from "../../shared/lead-source.ts";
import { FORM_SOURCE_FIELD } from "../../shared/page-context.ts";

/** `served` is the action's result: only the results of a refused post carry a source. */
export function SourceField({ served }: { served?: object | undefined }) {
  const source =
    served && "source" in served ? (served.source as LeadSource | undefined) : undefined;
  return source ? (
    <input type="hidden" name={FORM_SOURCE_FIELD} value={JSON.stringify(source)} />
  ) : null;
}
