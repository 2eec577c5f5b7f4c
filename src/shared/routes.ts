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

export const ANCHORS = {
  caseStudies: "casestudies",
  industriesAndTechNeeds: "industries&techneeds",
  capabilities: "capabilities",
  methodology: "methodology",
  leadership: "leadership",
  ethos: "ethos",
} as const;
