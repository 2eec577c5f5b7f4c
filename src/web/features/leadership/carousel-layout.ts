/**
 * The carousel's responsive layout, generated from CAROUSEL so the
 * numbers live in one place. The CSS sets two custom properties on the track,
 * --per-view and --gap, at each breakpoint; leadership.css sizes the slides
 * from them. Inlined with the site's styles (root.tsx), the layout is right
 * at every width before any script runs.
 */
import { CAROUSEL } from "../../../shared/constants.ts";

export const TRACK_CLASS = "leadership-track";

function trackRule(slidesPerView: number, spaceBetween: number): string {
  return `.${TRACK_CLASS} { --per-view: ${slidesPerView}; --gap: ${spaceBetween}px; }`;
}

export function carouselLayoutCss(): string {
  const rules = [trackRule(CAROUSEL.default.slidesPerView, CAROUSEL.default.spaceBetween)];
  for (const { minWidth, slidesPerView, spaceBetween } of CAROUSEL.breakpoints) {
    rules.push(`@media (min-width: ${minWidth}px) { ${trackRule(slidesPerView, spaceBetween)} }`);
  }
  return rules.join("\n");
}
