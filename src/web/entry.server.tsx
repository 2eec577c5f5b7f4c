/**
 * Renders a page on the server (src/server/pages/ calls it once per page and
 * keeps the result, ADR 010). The whole document is rendered before it is
 * written (allReady), including the inline scripts that carry React Router's
 * hydration data.
 */
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";

export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  context: EntryContext,
) {
  const body = await renderToReadableStream(<ServerRouter context={context} url={request.url} />, {
    signal: request.signal,
  });
  await body.allReady;
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { status, headers });
}
