/** §2: the routes of the site and their in-page anchors. */
export const ROUTES = {
  home: "/",
  weServe: "/weserve",
  weDo: "/wedo",
  weAre: "/weare",
  contactUs: "/contact-us",
} as const;

export const PRERENDERED_PATHS = Object.values(ROUTES);

export const ANCHORS = {
  caseStudies: "casestudies",
  industriesAndTechNeeds: "industries&techneeds",
  capabilities: "capabilities",
  methodology: "methodology",
  leadership: "leadership",
  ethos: "ethos",
} as const;
