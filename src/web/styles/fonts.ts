/**
 * The font files the first paint needs, for root.tsx's `links`: both faces of
 * fonts.css are used above the fold (headings and navigation), so the browser
 * fetches them with the page instead of after the styles are applied. The URLs
 * are the same hashed files fonts.css points at; fonts are always fetched in
 * CORS mode, hence crossOrigin, or the preload would not be reused.
 */

import type { LinkDescriptor } from "react-router";
import interUrl from "./fonts/inter-latin-wght-400-700.woff2?url";
import sourceSerifUrl from "./fonts/source-serif-4-latin-wght-400-700.woff2?url";

export const FONT_PRELOADS: LinkDescriptor[] = [interUrl, sourceSerifUrl].map((href) => ({
  rel: "preload",
  as: "font",
  type: "font/woff2",
  href,
  crossOrigin: "anonymous",
}));
