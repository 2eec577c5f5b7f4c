/**
 * Navigation state of a link that keeps the page where it is (a case study
 * opened over its list); every other new page starts at the top
 * (app/use-anchor-scroll.ts).
 */
export const KEEP_SCROLL = { keepScroll: true } as const;

export function keepsScroll(state: unknown): boolean {
  return typeof state === "object" && state !== null && "keepScroll" in state;
}
