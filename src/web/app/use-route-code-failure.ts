/**
 * When a page's code fails to download, React Router reloads the whole page
 * (a silent reload that loses where the visitor was going, or loops while
 * the network is down). Where the browser has the Navigation API, that
 * reload, the only one a script starts on this site, is cancelled and
 * reported here, so the page frame shows the error screen with a retry.
 * Elsewhere the reload happens as before, and the server renders the page
 * the visitor was going to.
 */
import { useEffect, useState } from "react";

export const ROUTE_CODE_FAILURE =
  "Failed to fetch dynamically imported module: this page's code could not be downloaded.";

interface NavigateEventLike extends Event {
  navigationType: "push" | "replace" | "reload" | "traverse";
  userInitiated: boolean;
}

export function useRouteCodeFailure(): boolean {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const navigation = (window as { navigation?: EventTarget }).navigation;
    if (!navigation) return;
    const onNavigate = (event: Event) => {
      const { navigationType, userInitiated, cancelable } = event as NavigateEventLike;
      if (navigationType !== "reload" || userInitiated || !cancelable) return;
      event.preventDefault();
      setFailed(true);
    };
    navigation.addEventListener("navigate", onNavigate);
    return () => navigation.removeEventListener("navigate", onNavigate);
  }, []);
  return failed;
}
