/**
 * On every navigation: to the anchor when the location has one (also on first
 * load), otherwise to the top of the new page. Back and forward keep the
 * browser's own scroll restoration.
 */
import { useEffect } from "react";
import { useLocation, useNavigationType } from "react-router";
import { scrollToAnchor } from "../lib/scrollToAnchor.ts";

export function useAnchorScroll(): void {
  const { pathname, hash, key } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new navigation (key) to the same anchor scrolls again
  useEffect(() => {
    if (hash) return scrollToAnchor(decodeURIComponent(hash.slice(1)));
    if (navigationType !== "POP") window.scrollTo(0, 0);
  }, [pathname, hash, key]);
}
