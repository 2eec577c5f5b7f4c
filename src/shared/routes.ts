/** §2: the routes of the site and their in-page anchors. */
export const ROUTES = {
  home: "/",
  weServe: "/weserve",
  weDo: "/wedo",
  weAre: "/weare",
  contactUs: "/contact-us",
} as const;

/** The five screens of the spec. */
export const PRERENDERED_PATHS = Object.values(ROUTES);

/** Where the link in every newsletter e-mail leads (not a screen of the spec's menu). */
export const UNSUBSCRIBE_PATH = "/unsubscribe";

/**
 * §2: any other path shows Home. The build prerenders this path, which only
 * the catch-all route matches, so the page the server sends for an unknown
 * path hydrates as that route (one rendered for Home's index route would not: React error 418).
 */
export const NOT_FOUND_PATH = "/__not-found";

export const ANCHORS = {
  caseStudies: "casestudies",
  industriesAndTechNeeds: "industries&techneeds",
  capabilities: "capabilities",
  methodology: "methodology",
  leadership: "leadership",
  ethos: "ethos",
} as const;
