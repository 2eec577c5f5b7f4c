/**
 * The visit's source, for the forms to send with a lead (shared/lead-source.ts):
 * on the visit's first page the entry path, the referring site's host (only
 * another site's) and the page's UTM tags are kept in sessionStorage, which
 * ends with the tab; no identifier, nothing else. Storage that is off or full
 * only means no source.
 */
import type { LeadSource } from "../../shared/lead-source.ts";

const KEY = "lead-source";

/** Keeps the first page's source once per visit (the tab's session). */
export function recordLeadSource(): void {
  try {
    if (sessionStorage.getItem(KEY)) return;
    const { pathname, search, origin } = location;
    const query = new URLSearchParams(search);
    const source: LeadSource = { entryPage: pathname };
    const referrer = document.referrer && new URL(document.referrer);
    if (referrer && referrer.origin !== origin) source.referrer = referrer.hostname;
    for (const [key, tag] of [
      ["utmSource", "utm_source"],
      ["utmMedium", "utm_medium"],
      ["utmCampaign", "utm_campaign"],
    ] as const) {
      const value = query.get(tag);
      if (value) source[key] = value;
    }
    sessionStorage.setItem(KEY, JSON.stringify(source));
  } catch {
    // No storage, or a referrer that is not a URL: the lead's source stays unknown.
  }
}

/** The kept source, or undefined; the server checks every part again. */
export function leadSource(): LeadSource | undefined {
  try {
    const kept = sessionStorage.getItem(KEY);
    return kept ? (JSON.parse(kept) as LeadSource) : undefined;
  } catch {
    return undefined;
  }
}
