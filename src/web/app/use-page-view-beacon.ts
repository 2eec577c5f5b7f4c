/**
 * A page reached by a client-side navigation is counted as the server
 * counts the pages it sends (ADR 051): one beacon to this site's own
 * origin, with the new path and its query, and nothing else. No cookie,
 * nothing stored or read on the device; the document's first page was
 * counted where it was served, so it sends none. A browser asking not to be
 * tracked (Do Not Track, Global Privacy Control) says so in the beacon's
 * own headers, as in every request it makes, and the server counts nothing.
 */
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { API_PATHS } from "../../shared/api-paths.ts";

export function usePageViewBeacon(): void {
  const { pathname, search } = useLocation();
  const shown = useRef(pathname);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page is a new path; a query alone is the same page
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    navigator.sendBeacon(`/${API_PATHS.pageView}`, pathname + search);
  }, [pathname]);
}
