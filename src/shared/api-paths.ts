/**
 * The calls the site makes, relative to the configured backend host. The
 * browser's client resolves them against that host; the server registers
 * each at its absolute path (serverPath), so the two cannot drift apart.
 */
export const API_PATHS = {
  subscribe: "api/v1/subscribe",
  teams: "api/v1/teams/",
  items: "api/v1/items/",
  /** Added beside the first public calls: the case studies, for a page reached by client-side navigation. */
  caseStudies: "api/v1/case-studies/",
  sendComment: "api/v1/send-comment",
  xsrf: "api/v1/xsrf",
  unsubscribe: "api/v1/unsubscribe",
  /** Added beside the first public calls: confirming a subscription from the link in its e-mail (double opt-in). */
  confirmSubscription: "api/v1/subscribe/confirm",
  /**
   * Added beside the first public calls: a page reached by a client-side navigation, counted
   * like a page the server sent (ADR 051). Posted with navigator.sendBeacon
   * to the page's own origin, whatever the backend host is.
   */
  pageView: "api/v1/page-view",
} as const;

/** Every API path starts with this; anything else is the site. */
export const API_ROOT = "/api/";

/** The absolute path the server answers an API path on. */
export function serverPath(path: (typeof API_PATHS)[keyof typeof API_PATHS]): string {
  return `/${path}`;
}
