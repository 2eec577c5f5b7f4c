/** §2: the top navigation and the entries of its three mega-menu panels. */
import { CAPABILITIES } from "../../shared/capabilities.ts";
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

function group(label: string, to: string, entries: readonly string[] = []): MenuGroup {
  return { label, to, links: entries.map((entry) => ({ label: entry, to })) };
}

const serveIndustries = at(ROUTES.weServe, ANCHORS.industriesAndTechNeeds);
const doCapabilities = at(ROUTES.weDo, ANCHORS.capabilities);

export const MENU: readonly MenuSection[] = [
  {
    id: "serve",
    label: "Who We Serve",
    to: ROUTES.weServe,
    groups: [
      group("Case Studies", at(ROUTES.weServe, ANCHORS.caseStudies)),
      group("Industries", serveIndustries, [
        "Automotive",
        "Construction",
        "E-Commerce",
        "Finance",
        "Manufacturing",
      ]),
      group("Tech Needs", serveIndustries, [
        "Third Party Software Integration",
        "In House Development",
      ]),
    ],
  },
  {
    id: "do",
    label: "What We Do",
    to: ROUTES.weDo,
    groups: [
      group("Capabilities", doCapabilities, CAPABILITIES),
      group("Methodology", at(ROUTES.weDo, ANCHORS.methodology)),
    ],
  },
  {
    id: "are",
    label: "Who We Are",
    to: ROUTES.weAre,
    groups: [
      group("Leadership", at(ROUTES.weAre, ANCHORS.leadership)),
      group("Our Ethos", at(ROUTES.weAre, ANCHORS.ethos)),
    ],
  },
];

export const CONTACT_LINK: MenuLink = { label: "Contact Us", to: ROUTES.contactUs };
