/**
 * What Home and the menu put forward (shared/highlights.ts), as the root
 * loader read it: in the server's render and, unchanged, in the browser.
 * Where the root has no data (an error screen), nothing is put forward.
 */
import { useRouteLoaderData } from "react-router";
import type { SiteHighlights } from "../../shared/highlights.ts";

const NONE: SiteHighlights = {
  outcomes: [],
  featured: null,
  latestCaseStudy: null,
  latestIssue: null,
};

export function useHighlights(): SiteHighlights {
  const root = useRouteLoaderData("root") as { highlights?: SiteHighlights } | undefined;
  return root?.highlights ?? NONE;
}
