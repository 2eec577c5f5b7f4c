/**
 * After a link or a form leads to another page, focus goes to that page's
 * main heading: a screen reader reads the new page's name, and the next Tab
 * starts from the top of its content instead of from the link that led there.
 * Not on the document's first page (the browser announces a loaded document
 * itself); not when only the anchor changes (the visitor stays on the page,
 * and the anchor's target is where they are going); not on Back and Forward,
 * which return the visitor to where they were on that page, far from its
 * heading, and leave focus where the visitor put it.
 *
 * The heading becomes focusable by script only (tabindex -1), so Tab never
 * stops on it; `preventScroll` leaves the scroll position to useAnchorScroll.
 */
import { useEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

export function useRouteFocus(): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef(pathname);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new page moves focus, not a change of navigation type alone
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (navigationType === "POP") return;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [pathname]);
}
