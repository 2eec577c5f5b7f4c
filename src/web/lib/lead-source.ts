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
    if (sessionStorage[KEY]) return;
    const query = new URLSearchParams(location.search);
    const tag = (name: string) => query.get(`utm_${name}`) || undefined;
    const referrer = document.referrer && new URL(document.referrer);
    const source: LeadSource = {
      entryPage: location.pathname,
      referrer: referrer && referrer.origin !== location.origin ? referrer.hostname : undefined,
      utmSource: tag("source"),
      utmMedium: tag("medium"),
      utmCampaign: tag("campaign"),
    };
    sessionStorage[KEY] = JSON.stringify(source);
  } catch {
    // No storage, or a referrer that is not a URL: the lead's source stays unknown.
  }
}

/** The kept source, or undefined; the server checks every part again. */
export function leadSource(): LeadSource | undefined {
  try {
    return JSON.parse(sessionStorage[KEY]) as LeadSource;
  } catch {
    return undefined;
  }
}
