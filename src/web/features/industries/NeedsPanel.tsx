/**
 * One panel of Industries & Tech Needs: a list of entries and a detail stage.
 * Hovering or focusing an entry shows its image and description; the detail
 * clears when the pointer or the focus leaves it (spec §4). A tap selects too.
 */

import { type PointerEvent, useEffect, useRef, useState } from "react";
import type { ContentItem } from "../../../shared/content.ts";
import { ArrowIcon } from "../../components/ArrowIcon.tsx";
import { prefersReducedMotion } from "../../hooks/usePrefersReducedMotion.ts";

const PROMPT = "Hover or focus an entry to see how we help.";

interface NeedsPanelProps {
  id: string;
  title: string;
  intro: string;
  /** Shown in the detail area while no entry is selected. */
  overview: string;
  items: ContentItem[];
}

function isHover(event: PointerEvent) {
  return event.pointerType !== "touch";
}

export function NeedsPanel({ id, title, intro, overview, items }: NeedsPanelProps) {
  const [active, setActive] = useState<number | null>(null);
  // The pictures load once the visitor reaches for the list, not with the page:
  // most visitors never hover an entry, and they are a third of the page's weight.
  const [wanted, setWanted] = useState(false);
  const show = (index: number) => {
    setWanted(true);
    setActive(index);
  };
  const stage = useRef<HTMLDivElement>(null);
  // On a phone the detail sits below the list: a tap brings it into view,
  // once the tap's changes are on the page (its pictures may just have come).
  const [tapped, setTapped] = useState(0);
  const choose = (index: number) => {
    show(index);
    setTapped((count) => count + 1);
  };
  useEffect(() => {
    const box = stage.current?.getBoundingClientRect();
    if (tapped === 0 || !box || (box.top >= 0 && box.bottom <= window.innerHeight)) return;
    // To the middle, not just the edge: the panel's fade-in may still be
    // scaling it up, and an edge-aligned detail would end up partly out of view.
    stage.current?.scrollIntoView({
      block: "center",
      behavior: prefersReducedMotion() ? "auto" : "smooth",
    });
  }, [tapped]);
  const headingId = `${id}-heading`;
  const current = active === null ? undefined : items[active];
  const clear = (index: number) => setActive((now) => (now === index ? null : now));

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
            {items.map((item, index) => (
              <li key={item.name}>
                <button
                  type="button"
                  className={`needs-entry${index === active ? " is-active" : ""}`}
                  onPointerEnter={(event) => isHover(event) && show(index)}
                  onPointerLeave={(event) => isHover(event) && clear(index)}
                  onFocus={() => show(index)}
                  onBlur={() => clear(index)}
                  onClick={() => choose(index)}
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

      <div ref={stage} className={`needs-stage${current ? " is-active" : ""}`}>
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
        {/* All texts share one grid cell and only the current one is visible, so the
            box always has the height of the longest and nothing below it moves.
            Screen readers hear the current one through the live region. */}
        <div className="needs-stage__text">
          <p className="needs-stage__overview">{overview}</p>
          {items.map((item, index) => (
            <div
              key={item.name}
              className={`needs-stage__detail${index === active ? " is-active" : ""}`}
              aria-hidden="true"
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
