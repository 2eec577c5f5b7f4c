/**
 * The stub server build (stub-server-build.mjs) with its pages rendered by
 * React, as the site's entry.server.tsx renders them: react-dom/static is
 * first loaded here, when the server imports the build, and the page is a
 * component whose elements are made during the render. A React loaded for
 * development beside a react-dom loaded for production fails on every page
 * here as it does with the real build.
 */
import { createElement } from "react";
import { prerender } from "react-dom/static";

export * from "./stub-server-build.mjs";

/** A page as the site's routes are: a component, so its elements are made while React renders. */
function Page({ path }) {
  return createElement(
    "html",
    null,
    createElement("body", null, createElement("h1", null, `Page ${path}`)),
  );
}

export const entry = {
  module: {
    default: async (request, status, headers) => {
      const { prelude } = await prerender(
        createElement(Page, { path: new URL(request.url).pathname }),
      );
      headers.set("content-type", "text/html; charset=utf-8");
      return new Response(`<!DOCTYPE html>${await new Response(prelude).text()}`, {
        status,
        headers,
      });
    },
  },
};
