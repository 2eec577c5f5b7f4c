/**
 * The font files the first paint needs, for root.tsx's `links`: both faces of
 * fonts.css are used above the fold (headings and navigation), so the browser
 * fetches them with the page instead of after the styles are applied. The URLs
 * are the same hashed files fonts.css points at; fonts are always fetched in
 * CORS mode, hence crossOrigin, or the preload would not be reused.
 */
import interUrl from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import sourceSerifUrl from "@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2?url";
import type { LinkDescriptor } from "react-router";

export const FONT_PRELOADS: LinkDescriptor[] = [interUrl, sourceSerifUrl].map((href) => ({
  rel: "preload",
  as: "font",
  type: "font/woff2",
  href,
  crossOrigin: "anonymous",
}));
