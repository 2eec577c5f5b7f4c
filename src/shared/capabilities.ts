/**
 * The firm's eight capabilities, named and ordered as the site first shipped them: the
 * seed checks that content/items.json describes exactly these. Once seeded,
 * the site names the capabilities the firm keeps in the console (the menu,
 * the inquiry types, the counts in words), not these.
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
