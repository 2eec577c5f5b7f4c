/**
 * The top navigation and the entries of its three mega-menu panels, each
 * with the one line the desktop panel shows under it.
 */
import { CAPABILITIES, type Capability } from "../../shared/capabilities.ts";
import type { ContentCategory } from "../../shared/content-categories.ts";
import { entryAnchor } from "../../shared/entryAnchor.ts";
import { ANCHORS, ROUTES } from "../../shared/routes.ts";

export type PanelId = "serve" | "do" | "are";

export interface MenuLink {
  label: string;
  to: string;
}

/** A link of a panel, with what it leads to in one line. */
export interface PanelLink extends MenuLink {
  line: string;
}

export interface MenuGroup extends PanelLink {
  links: PanelLink[];
}

export interface MenuSection extends MenuLink {
  id: PanelId;
  groups: MenuGroup[];
}

const at = (route: string, anchor: string) => `${route}#${anchor}`;

/** The entries of a group, each of which has an anchor of its own on the group's page: name → line. */
interface Entries {
  category: ContentCategory;
  lines: Readonly<Record<string, string>>;
}

/** A group of a panel: its heading leads to its section, each entry to the entry itself. */
function group(
  label: string,
  line: string,
  route: string,
  anchor: string,
  entries?: Entries,
): MenuGroup {
  const links = entries
    ? Object.entries(entries.lines).map(([name, entryLine]) => ({
        label: name,
        line: entryLine,
        to: at(route, entryAnchor(entries.category, name)),
      }))
    : [];
  return { label, line, to: at(route, anchor), links };
}

/** In the spec's order (shared/capabilities.ts); the type asks for a line for each. */
const CAPABILITY_LINES: Readonly<Record<Capability, string>> = {
  "App Development": "Web and mobile apps your people actually use.",
  Automation: "Repetitive work handed over to software.",
  "Cloud Infrastructure": "Platforms that scale, stay up and cost less.",
  "Data Management": "One trusted source for every number.",
  "Digital Strategy": "Where technology pays off, and in what order.",
  "Machine Learning": "Models that learn from the data you already have.",
  "Predictive Analytics": "Next quarter's numbers, with a range you can plan on.",
  "Tech Stack Management": "Fewer tools, each one earning its place.",
};

export const MENU: readonly MenuSection[] = [
  {
    id: "serve",
    label: "Who We Serve",
    to: ROUTES.weServe,
    groups: [
      group(
        "Case Studies",
        "Results we measured with our clients.",
        ROUTES.weServe,
        ANCHORS.caseStudies,
      ),
      group(
        "Industries",
        "The markets we know from the inside.",
        ROUTES.weServe,
        ANCHORS.industriesAndTechNeeds,
        {
          category: "industries",
          lines: {
            Automotive: "Dealer, fleet and supply-chain data put to work.",
            Construction: "Bids, schedules and sites on one set of numbers.",
            "E-Commerce": "Targeting, pricing and demand, learned from orders.",
            Finance: "Cash, credit and receivables forecasts finance trusts.",
            Manufacturing: "Maintenance and quality predicted, not reacted to.",
          },
        },
      ),
      group(
        "Tech Needs",
        "Where your systems need to go next.",
        ROUTES.weServe,
        ANCHORS.industriesAndTechNeeds,
        {
          category: "techneeds",
          lines: {
            "Third Party Software Integration": "Your tools passing data to each other, reliably.",
            "In House Development": "Software built around the way you work.",
          },
        },
      ),
    ],
  },
  {
    id: "do",
    label: "What We Do",
    to: ROUTES.weDo,
    groups: [
      group(
        "Capabilities",
        "Eight disciplines, staffed by practitioners.",
        ROUTES.weDo,
        ANCHORS.capabilities,
        {
          category: "capabilities",
          lines: Object.fromEntries(CAPABILITIES.map((name) => [name, CAPABILITY_LINES[name]])),
        },
      ),
      group(
        "Methodology",
        "Business and technical experts, side by side.",
        ROUTES.weDo,
        ANCHORS.methodology,
      ),
    ],
  },
  {
    id: "are",
    label: "Who We Are",
    to: ROUTES.weAre,
    groups: [
      group(
        "Leadership",
        "The people who answer for every engagement.",
        ROUTES.weAre,
        ANCHORS.leadership,
      ),
      group("Our Ethos", "What we hold to, whoever the client.", ROUTES.weAre, ANCHORS.ethos),
    ],
  },
];

export const CONTACT_LINK: MenuLink = { label: "Contact Us", to: ROUTES.contactUs };
