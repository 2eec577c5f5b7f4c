/**
 * Renders the site's pages at run time with React Router's server build
 * (`npm run build` writes it to build/server/index.js): a page for a GET, and
 * the page a form's POST answers (its route's action, then the page).
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { PageContext } from "../../../shared/page-context.ts";

export interface RenderedPage {
  status: number;
  html: string;
}

/** A form as the browser posted it without JavaScript. */
export interface FormSubmission {
  /** The page the form posts to, e.g. "/contact-us". */
  path: string;
  /** The body as sent, application/x-www-form-urlencoded. */
  body: string;
}

export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

export interface PageRenderer {
  /** Renders the page at `path` (a path of this site, e.g. "/weare") with its loaders' context. */
  (path: string, context: PageContext): Promise<RenderedPage>;
  /**
   * Renders the answer to a form's POST: the route's action reads the form
   * (`request.formData()`), then the page is rendered with what it returned.
   * Absent from renderers that only stand in for pages (tests).
   */
  submit?: (form: FormSubmission, context: PageContext) => Promise<RenderedPage>;
}

/** The renderer of a server build, or null when there is none (`npm run dev` renders from Vite). */
export async function loadPageRenderer(serverBuild: string): Promise<PageRenderer | null> {
  if (!existsSync(serverBuild)) return null;
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  return pageRendererFor(async () => build, "production");
}

/**
 * A renderer over React Router's server build. `build` is asked for it at
 * every render: the built file's module once loaded, or in development the
 * module Vite compiles anew when a source file changes.
 */
export function pageRendererFor(
  build: () => Promise<ServerBuild>,
  mode: "production" | "development",
): PageRenderer {
  const handle = createRequestHandler(build, mode);
  const answer = async (request: Request, context: PageContext): Promise<RenderedPage> => {
    const response = await handle(request, context);
    return { status: response.status, html: await response.text() };
  };
  const render = (path: string, context: PageContext) =>
    answer(new Request(new URL(path, context.origin)), context);
  // Only the body and its type are passed on: the server has checked where the
  // post came from (formPostRefusal), and the page is rendered at the public
  // origin, as every page is.
  const submit = ({ path, body }: FormSubmission, context: PageContext) =>
    answer(
      new Request(new URL(path, context.origin), {
        method: "POST",
        body,
        headers: { "content-type": FORM_CONTENT_TYPE },
      }),
      context,
    );
  return Object.assign(render, { submit });
}
