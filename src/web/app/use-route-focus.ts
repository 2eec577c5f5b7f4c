/**
 * After a link or a form leads to another page, focus goes to that page's
 * main heading: a screen reader reads the new page's name, and the next Tab
 * starts from the top of its content instead of from the link that led there.
 * Not on the document's first page (the browser announces a loaded document
 * itself); not when only the anchor changes (the visitor stays on the page,
 * and the anchor's target is where they are going). Back and Forward return
 * the visitor to where they were on that page, far from its heading, so focus
 * stays put and the new page's title is announced instead, through a polite
 * live region the layout renders with the text this hook returns.
 *
 * The heading becomes focusable by script only (tabindex -1), so Tab never
 * stops on it; `preventScroll` leaves the scroll position to useAnchorScroll.
 */
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigationType } from "react-router";

/** Moves focus to the new page's heading; returns what to announce after Back or Forward. */
export function useRouteFocus(): string {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef(pathname);
  const [announcement, setAnnouncement] = useState("");

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new page moves focus, not a change of navigation type alone
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (navigationType === "POP") {
      setAnnouncement(document.title);
      return;
    }
    setAnnouncement("");
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [pathname]);

  return announcement;
}
