/**
 * Runs `poll` every `everyMs` while `active`, one call after the other (the
 * next waits for the last to finish), and stops when `active` turns false or
 * the component unmounts.
 */
import { useEffect } from "react";

export function usePolling(active: boolean, poll: () => Promise<void>, everyMs: number): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      await poll();
      if (!stopped) timer = setTimeout(tick, everyMs);
    };
    timer = setTimeout(tick, everyMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active, poll, everyMs]);
}
