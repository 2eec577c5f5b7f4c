/**
 * The in-page anchor of one entry of a content list, so a link can lead to
 * that entry itself rather than to its section: "Finance" among the
 * industries is #industries-finance. The mega-menu links to these, and the
 * pages give each entry its anchor as an id.
 */
import type { ContentCategory } from "./content-categories.ts";

export function entryAnchor(category: ContentCategory, name: string): string {
  return `${category}-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}
