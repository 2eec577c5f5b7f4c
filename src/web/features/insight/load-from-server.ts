/**
 * The archive's pages come from the server alone: the site's API has no
 * archive, and the server keeps these pages rendered (ADR 010). Links to them
 * load the page (`reloadDocument`), but the browser can still move to one
 * without loading it: Back or Forward to an entry this page made, or a link
 * some other part renders through the router. The routes' clientLoader then
 * loads the page from the server instead of asking for its data. (Back and
 * Forward have already moved the address there, and a load of the address a
 * page is at takes that entry's place: Forward still leads where it did.)
 */
import { type ClientLoaderFunctionArgs, redirectDocument } from "react-router";

export function loadFromServer({ request }: ClientLoaderFunctionArgs): never {
  throw redirectDocument(request.url);
}
