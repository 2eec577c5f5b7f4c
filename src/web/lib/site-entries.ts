/**
 * What every page names of the firm's content outside the pages that list
 * it: the industries, tech needs and capabilities the menu links to, each
 * with a line of its own, and from the capabilities the inquiry form's types
 * and the counts written in words. The root loader reads them from the
 * database with the page (root.tsx), so a change in the console reaches the
 * menu, the form and the counts with the pages themselves.
 */
import type { ListedItem } from "../../shared/content.ts";
import { CATEGORIES_IN_MENU, type MenuCategory } from "../../shared/content-categories.ts";
import type { ContentReader } from "../../shared/page-context.ts";
import { clampDescription } from "./seo.ts";

/** An entry as the menu shows it: its name, and what it is about in one line. */
export interface SiteEntry {
  name: string;
  line: string;
}

export type SiteEntries = Record<MenuCategory, SiteEntry[]>;

/** Short enough for one line under the entry in the menu's panel. */
export const ENTRY_LINE_MAX = 64;

/** Where a description's first sentence ends: a stop, then a space and the next sentence. */
const SENTENCE_END = /(?<=[.!?])\s+(?=\S)/;

/**
 * An entry's line when the firm wrote none: the first sentence of its
 * description, cut on a word boundary when it is longer than a line (ADR 043).
 */
export function entryLine(description: string): string {
  const [first = ""] = description.trim().split(SENTENCE_END);
  return clampDescription(first, ENTRY_LINE_MAX);
}

/** The entries of the lists as the pages show them (visible ones, in the firm's order). */
export function siteEntriesOf(
  lists: Readonly<Record<MenuCategory, readonly ListedItem[]>>,
): SiteEntries {
  const entries = (items: readonly ListedItem[]) =>
    items.map(({ name, description, menuLine }) => ({
      name,
      line: menuLine || entryLine(description),
    }));
  return {
    industries: entries(lists.industries),
    techneeds: entries(lists.techneeds),
    capabilities: entries(lists.capabilities),
  };
}

export async function readSiteEntries(content: Pick<ContentReader, "items">): Promise<SiteEntries> {
  const [industries, techneeds, capabilities] = await Promise.all(
    CATEGORIES_IN_MENU.map((category) => content.items(category)),
  );
  return siteEntriesOf({
    industries: industries ?? [],
    techneeds: techneeds ?? [],
    capabilities: capabilities ?? [],
  });
}
