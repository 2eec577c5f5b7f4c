/**
 * Used only at build time, to prerender each route to static HTML; the site
 * has no server-side rendering at run time, so a plain string render suffices.
 */
import { renderToString } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";

export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  context: EntryContext,
) {
  const html = renderToString(<ServerRouter context={context} url={request.url} />);
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${html}`, { status, headers });
}
