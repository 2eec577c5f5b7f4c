/**
 * The archive's pages come from the server alone: the site's API has no
 * archive, and the server keeps these pages rendered (ADR 010). Links to them
 * load the page (`reloadDocument`), but the browser can still move to one
 * without loading it: Back or Forward to an entry this page made, or a link
 * some other part renders through the router. The routes' clientLoader then
 * loads the page from the server instead of asking for its data.
 */
import type { ClientLoaderFunctionArgs } from "react-router";

export function loadFromServer({ request }: ClientLoaderFunctionArgs): Promise<never> {
  const target = new URL(request.url);
  const here = window.location;
  // Back and Forward have already moved the address: that entry is loaded in
  // place, so Back still leads where it did. A link adds an entry, as links do.
  if (target.pathname === here.pathname && target.search === here.search) {
    here.replace(here.href);
  } else {
    here.assign(target.href);
  }
  // The page is going away: the router's navigation is left waiting.
  return new Promise<never>(() => {});
}
