/**
 * Keeps what a screen shows current without reloading the page: it is read
 * again when the person comes back to the tab, and, given `everyMs`, that
 * often while the tab is in view. A hidden tab asks the server nothing, and
 * neither does a screen whose record cannot change on its own (`reload` null).
 */
import { useEffect } from "react";

export function useKeptCurrent(reload: (() => void) | null, everyMs?: number): void {
  useEffect(() => {
    if (!reload) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (everyMs) timer = setInterval(reload, everyMs);
    };
    const stop = () => clearInterval(timer);
    const onVisibility = () => {
      stop();
      if (document.visibilityState !== "visible") return;
      reload();
      start();
    };
    if (document.visibilityState === "visible") start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [reload, everyMs]);
}
