/**
 * Renders the site's pages at run time with React Router's server build
 * (`npm run build` writes it to build/server/index.js).
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { PageContext } from "../../shared/page-context.ts";

export interface RenderedPage {
  status: number;
  html: string;
}

/** Renders the page at `path` (a path of this site, e.g. "/weare") with its loaders' context. */
export type PageRenderer = (path: string, context: PageContext) => Promise<RenderedPage>;

/** The renderer of a server build, or null when there is none (`npm run dev` serves pages itself). */
export async function loadPageRenderer(serverBuild: string): Promise<PageRenderer | null> {
  if (!existsSync(serverBuild)) return null;
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  return async (path, context) => {
    const response = await handle(new Request(new URL(path, context.origin)), context);
    return { status: response.status, html: await response.text() };
  };
}
