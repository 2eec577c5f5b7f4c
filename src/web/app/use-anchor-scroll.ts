/**
 * Where the page scrolls on every navigation:
 * - Back and Forward return to where the visitor was on that entry;
 * - a location with an anchor scrolls smoothly to it (also on first load),
 *   retrying while the target is not there yet (lib/scroll-to-anchor.ts);
 * - any other new page starts at the top, unless the link asked to keep the
 *   place (a case study opened over its list).
 *
 * React Router's <ScrollRestoration> would jump to an anchor at once, before
 * the smooth scroll to it could run, so the positions are kept here instead:
 * per history entry, recorded as the visitor scrolls (once the next page is
 * rendered, the old position may already be cut short by a shorter page).
 *
 * A reload is a return to the same entry, so it keeps the place, as browsers
 * do; a page loaded afresh (a typed address, a link from another site) is a
 * new entry, so it starts at the top or at its anchor (ADR 023).
 */
import { useEffect, useLayoutEffect } from "react";
import { useLocation, useNavigationType } from "react-router";
import { keepsScroll } from "../lib/keep-scroll.ts";
import { scrollToAnchor } from "../lib/scroll-to-anchor.ts";

const STORAGE_KEY = "scroll-positions";

/**
 * The positions this document recorded, by entry key. The tab's other
 * documents keep theirs in session storage; a document the browser brings back
 * from its back/forward cache still holds its old copy in memory, so only its
 * own entries are merged in when it leaves, never a stale copy of the rest.
 */
const recorded: Record<string, number> = {};

function storedPositions(): Record<string, number> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}");
    return typeof stored === "object" && stored !== null ? (stored as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function savedPosition(entry: string): number | undefined {
  return recorded[entry] ?? storedPositions()[entry];
}

/** The entry on show: its place is taken once more as the document leaves. */
let currentEntry: string | undefined;

/**
 * Runs as the document leaves. A scroll is reported a frame after it happens,
 * so Back right after a scroll would otherwise leave the old place behind.
 */
function persistPositions(): void {
  if (currentEntry !== undefined) recorded[currentEntry] = window.scrollY;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...storedPositions(), ...recorded }));
  } catch {
    // Storage full or refused: after a reload, Back starts where the browser puts it.
  }
}

/** The field of the history entry's state that holds its own key (React Router leaves it be). */
const ENTRY_KEY_FIELD = "scrollEntryKey";

/**
 * The history entry's key for its saved position. React Router gives every
 * entry it creates a key of its own, but names the entry a document was loaded
 * into "default", in every document of the tab alike; such an entry is given
 * a key of its own in its state, which stays with it through reloads, Back
 * and Forward.
 */
function entryKey(routerKey: string): string {
  if (routerKey !== "default") return routerKey;
  const state: unknown = window.history.state;
  const kept =
    typeof state === "object" && state !== null ? Reflect.get(state, ENTRY_KEY_FIELD) : undefined;
  if (typeof kept === "string") return kept;
  const key = `entry-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  window.history.replaceState({ ...(state as object | null), [ENTRY_KEY_FIELD]: key }, "");
  return key;
}

export function useAnchorScroll(): void {
  const { pathname, hash, key, state } = useLocation();
  const navigationType = useNavigationType();

  // The browser restores at popstate, before the old page is back; we do it after.
  useEffect(() => {
    window.history.scrollRestoration = "manual";
    window.addEventListener("pagehide", persistPositions);
    return () => window.removeEventListener("pagehide", persistPositions);
  }, []);

  useLayoutEffect(() => {
    const entry = entryKey(key);
    currentEntry = entry;
    const record = () => {
      recorded[entry] = window.scrollY;
    };
    window.addEventListener("scroll", record, { passive: true });
    return () => window.removeEventListener("scroll", record);
  }, [key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new navigation (key) to the same anchor scrolls again
  useLayoutEffect(() => {
    const saved = navigationType === "POP" ? savedPosition(entryKey(key)) : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    if (hash) return scrollToAnchor(decodeURIComponent(hash.slice(1)));
    if (navigationType !== "POP" && !keepsScroll(state)) window.scrollTo(0, 0);
  }, [pathname, hash, key]);
}
