/**
 * The archive's stylesheet, on the archive's pages only. Every other page
 * inlines the site's whole stylesheet (root.tsx), and carries it in its
 * first-load script too; these rules serve two pages, so they travel with
 * them alone. React puts the element in the head, once; the page's
 * Content-Security-Policy allows it by hash like the site's own.
 */
import css from "./insight.css?inline";

export function InsightStyles() {
  return (
    <style href="insight" precedence="default">
      {css}
    </style>
  );
}
