/**
 * The entries the menu, the inquiry form and the counts in words name
 * (lib/site-entries.ts), as the root loader read them from the database: in
 * the server's render and, unchanged, in the browser, so the page hydrates
 * without a mismatch. Where the root has no data (an error screen), the
 * lists are empty and the menu shows its sections alone.
 */
import { useRouteLoaderData } from "react-router";
import type { SiteEntries } from "../lib/site-entries.ts";

const NONE: SiteEntries = { industries: [], techneeds: [], capabilities: [] };

export function useSiteEntries(): SiteEntries {
  const root = useRouteLoaderData("root") as { entries?: SiteEntries } | undefined;
  return root?.entries ?? NONE;
}
