/**
 * The firm's eight capabilities, in the order the site lists them. The What We Do
 * mega-menu lists them, the inquiry form offers them as inquiry types, and the
 * seed checks that content/items.json describes exactly these.
 */
export const CAPABILITIES = [
  "App Development",
  "Automation",
  "Cloud Infrastructure",
  "Data Management",
  "Digital Strategy",
  "Machine Learning",
  "Predictive Analytics",
  "Tech Stack Management",
] as const;

export type Capability = (typeof CAPABILITIES)[number];
