/**
 * Renders a page on the server (src/server/features/pages/ calls it once per page and
 * keeps the result, ADR 010). `prerender` waits for everything, the lazily
 * loaded carousel included, and writes each part in its place: a page that
 * streamed would show the carousel's placeholder until a script swapped the
 * content in, which a reader without JavaScript never runs. React also moves
 * a large finished part out of place to stream it sooner; the unbounded chunk
 * size keeps every part inline, since the page is sent whole anyway.
 */
import { prerender } from "react-dom/static";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { deferHydration } from "./app/defer-hydration.ts";

export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  context: EntryContext,
) {
  const { prelude } = await prerender(<ServerRouter context={context} url={request.url} />, {
    signal: request.signal,
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  headers.set("Content-Type", "text/html; charset=utf-8");
  const html = await new Response(prelude).text();
  return new Response(deferHydration(html), { status, headers });
}
