/**
 * The top navigation and the entries of its three mega-menu panels, each
 * with the one line the desktop panel shows under it. The sections and
 * their groups are fixed here; the entries of Industries, Tech Needs and
 * Capabilities, their lines and the count of capabilities come from the
 * firm's content (lib/site-entries.ts), so the menu follows the console.
 */
import type { ContentCategory } from "../../shared/content-categories.ts";
import { entryAnchor } from "../../shared/entry-anchor.ts";
import { ANCHORS, ROUTES } from "../../shared/routes.ts";
import { countInWords } from "../lib/count-in-words.ts";
import type { SiteEntries, SiteEntry } from "../lib/site-entries.ts";

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

type Section = MenuLink & { id: PanelId };

const SERVE: Section = { id: "serve", label: "Who We Serve", to: ROUTES.weServe };
const DO: Section = { id: "do", label: "What We Do", to: ROUTES.weDo };
const ARE: Section = { id: "are", label: "Who We Are", to: ROUTES.weAre };

/** The top navigation's sections: all the small screens' menu shows, with the contact link. */
export const SECTIONS: readonly Section[] = [SERVE, DO, ARE];

const at = (route: string, anchor: string) => `${route}#${anchor}`;

/** The entries of a group, each of which has an anchor of its own on the group's page. */
interface Entries {
  category: ContentCategory;
  list: readonly SiteEntry[];
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
    ? entries.list.map(({ name, line: entryLine }) => ({
        label: name,
        line: entryLine,
        to: at(route, entryAnchor(entries.category, name)),
      }))
    : [];
  return { label, line, to: at(route, anchor), links };
}

/** The three panels with the entries the content has now. */
export function menuOf(entries: SiteEntries): MenuSection[] {
  return [
    {
      ...SERVE,
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
          { category: "industries", list: entries.industries },
        ),
        group(
          "Tech Needs",
          "Where your systems need to go next.",
          ROUTES.weServe,
          ANCHORS.industriesAndTechNeeds,
          { category: "techneeds", list: entries.techneeds },
        ),
      ],
    },
    {
      ...DO,
      groups: [
        group(
          "Capabilities",
          `${countInWords(entries.capabilities.length, "discipline", "disciplines")}, staffed by practitioners.`,
          ROUTES.weDo,
          ANCHORS.capabilities,
          { category: "capabilities", list: entries.capabilities },
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
      ...ARE,
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
}

export const CONTACT_LINK: MenuLink = { label: "Contact Us", to: ROUTES.contactUs };
