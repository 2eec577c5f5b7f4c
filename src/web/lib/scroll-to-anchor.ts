/**
 * A link with an anchor scrolls smoothly to it; if the target is
 * not in the page yet (a list still loading), it keeps looking for up to
 * 10 000 ms, then gives up quietly. Returns a function that cancels the wait.
 */
import { ANCHOR_SCROLL_RETRY_MS } from "../../shared/constants.ts";
import { prefersReducedMotion } from "../hooks/use-prefers-reduced-motion.ts";

const RETRY_INTERVAL_MS = 100;

export function scrollToAnchor(id: string, retryFor = ANCHOR_SCROLL_RETRY_MS): () => void {
  const deadline = Date.now() + retryFor;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const attempt = () => {
    const target = document.getElementById(id);
    if (target) {
      target.scrollIntoView({
        behavior: prefersReducedMotion() ? "auto" : "smooth",
        block: "start",
      });
      return;
    }
    if (Date.now() < deadline) timer = setTimeout(attempt, RETRY_INTERVAL_MS);
  };
  attempt();
  return () => clearTimeout(timer);
}
