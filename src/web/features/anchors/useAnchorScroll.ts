/** Scrolls to the location's anchor whenever it changes, including on first load. */
import { useEffect } from "react";
import { useLocation } from "react-router";
import { scrollToAnchor } from "./scrollToAnchor.ts";

export function useAnchorScroll(): void {
  const { pathname, hash, key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new navigation (key) to the same anchor scrolls again
  useEffect(() => {
    if (!hash) return;
    return scrollToAnchor(decodeURIComponent(hash.slice(1)));
  }, [pathname, hash, key]);
}
