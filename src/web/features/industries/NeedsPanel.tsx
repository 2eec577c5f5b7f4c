/**
 * One panel of Industries & Tech Needs: a list of entries and a detail stage.
 * Hovering or focusing an entry shows its image and description; the detail
 * clears when the pointer or the focus leaves it. A tap or a click
 * chooses an entry, and so does a link to its anchor (#industries-finance, as
 * the mega-menu has): a chosen entry stays shown until another is chosen.
 *
 * Where nothing can hover (touch screens) and on narrow screens, every
 * description shows in a list (industries.css), as it does without script;
 * the stage then shows the picture of the entry chosen.
 */

import { type PointerEvent, useEffect, useState } from "react";
import { useLocation } from "react-router";
import type { ContentItem } from "../../../shared/content.ts";
import { entryAnchor } from "../../../shared/entry-anchor.ts";
import { ArrowIcon } from "../../components/ArrowIcon.tsx";
import { prefersReducedMotion } from "../../hooks/use-prefers-reduced-motion.ts";

const PROMPT = "Hover or focus an entry to see how we help.";

interface NeedsPanelProps {
  category: "industries" | "techneeds";
  title: string;
  intro: string;
  /** Shown in the detail area while no entry is selected. */
  overview: string;
  items: ContentItem[];
}

function isHover(event: PointerEvent) {
  return event.pointerType !== "touch";
}

export function NeedsPanel({ category, title, intro, overview, items }: NeedsPanelProps) {
  const [pointed, setPointed] = useState<number | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  // The pictures load once the visitor reaches for the list, not with the page:
  // most visitors never hover an entry, and they are a third of the page's weight.
  const [wanted, setWanted] = useState(false);
  const point = (index: number) => {
    setWanted(true);
    setPointed(index);
  };
  const unpoint = (index: number) => setPointed((now) => (now === index ? null : now));
  const choose = (index: number) => {
    setWanted(true);
    setChosen(index);
  };
  const active = pointed ?? chosen;
  const entries = items.map((item) => ({ ...item, anchor: entryAnchor(category, item.name) }));

  // A link to an entry's anchor chooses it; the page scrolls to the anchor
  // itself (app/use-anchor-scroll.ts). Read after hydration: the server never
  // sees the anchor.
  const { hash, key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: on each navigation (key), a new one to the same entry included; the list comes with the page
  useEffect(() => {
    const index = entries.findIndex((entry) => `#${entry.anchor}` === hash);
    if (index !== -1) choose(index);
  }, [hash, key]);

  // On a phone the detail sits below the list: a tap brings it into view,
  // once the tap's changes are on the page (its pictures may just have come).
  // A new object on every tap, so tapping the same entry again scrolls again.
  const [tapped, setTapped] = useState<{ anchor: string } | null>(null);
  const tap = (index: number, anchor: string) => {
    choose(index);
    setTapped({ anchor });
  };
  useEffect(() => {
    const detail = tapped && document.getElementById(tapped.anchor);
    const box = detail?.getBoundingClientRect();
    if (!box || (box.top >= 0 && box.bottom <= window.innerHeight)) return;
    // To the middle, not just the edge: the panel's fade-in may still be
    // scaling it up, and an edge-aligned detail would end up partly out of view.
    detail?.scrollIntoView({
      block: "center",
      behavior: prefersReducedMotion() ? "auto" : "smooth",
    });
  }, [tapped]);
  const headingId = `${category}-heading`;
  const current = active === null ? undefined : items[active];

  return (
    <section className="needs-panel" aria-labelledby={headingId}>
      <header className="needs-panel__header">
        <h3 id={headingId}>{title}</h3>
        <p>{intro}</p>
      </header>

      <div className="needs-panel__entries">
        {items.length > 0 ? (
          <ul
            className={`needs-panel__list${items.length > 3 ? " needs-panel__list--columns" : ""}`}
            aria-labelledby={headingId}
          >
            {entries.map((item, index) => (
              <li key={item.name}>
                <button
                  type="button"
                  className={`needs-entry${index === active ? " is-active" : ""}`}
                  // A move, not an entry: the list scrolling under a resting
                  // pointer (a jump to an entry from the menu) is no hover.
                  onPointerMove={(event) => isHover(event) && pointed !== index && point(index)}
                  onPointerLeave={(event) => isHover(event) && unpoint(index)}
                  onFocus={() => point(index)}
                  onBlur={() => unpoint(index)}
                  onClick={() => tap(index, item.anchor)}
                >
                  <span className="needs-entry__number" aria-hidden="true">
                    {String(index + 1).padStart(2, "0")}
                  </span>
                  <span className="needs-entry__name">{item.name}</span>
                  <ArrowIcon />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="needs-panel__empty">This list is not available at the moment.</p>
        )}
      </div>

      <div
        className={`needs-stage${current ? " is-active" : ""}${chosen === null ? "" : " is-chosen"}`}
      >
        <div className="needs-stage__media">
          <div className="needs-stage__idle">
            <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
              <circle cx="24" cy="24" r="23" fill="var(--paper)" stroke="var(--line)" />
              <path
                d="M19 14l13 10-6 1.5 3.5 7-3 1.5-3.5-7-4 4z"
                fill="var(--accent)"
                stroke="var(--ink)"
                strokeWidth="1.4"
                strokeLinejoin="round"
              />
            </svg>
            <p>{PROMPT}</p>
          </div>
          {items.map((item, index) =>
            wanted && item.imagePath ? (
              <img
                key={item.name}
                className={index === active ? "is-active" : undefined}
                src={`/images/items/${item.imagePath}`}
                alt={`${item.name} illustration`}
                width={800}
                height={600}
                loading="lazy"
                decoding="async"
              />
            ) : null,
          )}
        </div>
        {/* Where one entry shows at a time, all texts share one grid cell and only
            the current one is visible, so the box always has the height of the
            longest and nothing below it moves; screen readers hear the current
            one through the live region. Elsewhere every text shows, in order. */}
        <div className="needs-stage__text">
          <p className="needs-stage__overview">{overview}</p>
          {entries.map((item, index) => (
            <div
              key={item.name}
              id={item.anchor}
              className={`needs-stage__detail${index === active ? " is-active" : ""}`}
            >
              <p className="needs-stage__name">{item.name}</p>
              <p className="needs-stage__description">{item.description}</p>
            </div>
          ))}
          <p className="visually-hidden" aria-live="polite">
            {current ? `${current.name}: ${current.description}` : ""}
          </p>
        </div>
      </div>
    </section>
  );
}
