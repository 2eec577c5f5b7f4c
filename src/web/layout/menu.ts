/** The top navigation and the entries of its three mega-menu panels. */
import { CAPABILITIES } from "../../shared/capabilities.ts";
import type { ContentCategory } from "../../shared/content.ts";
import { entryAnchor } from "../../shared/entryAnchor.ts";
import { ANCHORS, ROUTES } from "../../shared/routes.ts";

export type PanelId = "serve" | "do" | "are";

export interface MenuLink {
  label: string;
  to: string;
}

export interface MenuGroup extends MenuLink {
  links: MenuLink[];
}

export interface MenuSection extends MenuLink {
  id: PanelId;
  groups: MenuGroup[];
}

const at = (route: string, anchor: string) => `${route}#${anchor}`;

/** The entries of a group, each of which has an anchor of its own on the group's page. */
interface Entries {
  category: ContentCategory;
  names: readonly string[];
}

/** A group of a panel: its heading leads to its section, each entry to the entry itself. */
function group(label: string, route: string, anchor: string, entries?: Entries): MenuGroup {
  const links = entries
    ? entries.names.map((name) => ({
        label: name,
        to: at(route, entryAnchor(entries.category, name)),
      }))
    : [];
  return { label, to: at(route, anchor), links };
}

export const MENU: readonly MenuSection[] = [
  {
    id: "serve",
    label: "Who We Serve",
    to: ROUTES.weServe,
    groups: [
      group("Case Studies", ROUTES.weServe, ANCHORS.caseStudies),
      group("Industries", ROUTES.weServe, ANCHORS.industriesAndTechNeeds, {
        category: "industries",
        names: ["Automotive", "Construction", "E-Commerce", "Finance", "Manufacturing"],
      }),
      group("Tech Needs", ROUTES.weServe, ANCHORS.industriesAndTechNeeds, {
        category: "techneeds",
        names: ["Third Party Software Integration", "In House Development"],
      }),
    ],
  },
  {
    id: "do",
    label: "What We Do",
    to: ROUTES.weDo,
    groups: [
      group("Capabilities", ROUTES.weDo, ANCHORS.capabilities, {
        category: "capabilities",
        names: CAPABILITIES,
      }),
      group("Methodology", ROUTES.weDo, ANCHORS.methodology),
    ],
  },
  {
    id: "are",
    label: "Who We Are",
    to: ROUTES.weAre,
    groups: [
      group("Leadership", ROUTES.weAre, ANCHORS.leadership),
      group("Our Ethos", ROUTES.weAre, ANCHORS.ethos),
    ],
  },
];

export const CONTACT_LINK: MenuLink = { label: "Contact Us", to: ROUTES.contactUs };
