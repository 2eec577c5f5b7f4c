/**
 * Desktop navigation: hovering a section opens its panel (serve, do,
 * are or none); mouse leave, a click in the panel or on the section's own
 * link, Esc, and every navigation close it. The chevron button toggles the
 * panel for keyboard and touch users.
 *
 * Every panel is in the page, hidden while closed: without JavaScript,
 * hovering or focusing a section shows its panel by CSS (navigation.css).
 */
import { type KeyboardEvent, type PointerEvent, useMemo, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import type { SiteHighlights } from "../../shared/highlights.ts";
import { caseStudyPath } from "../../shared/routes.ts";
import { useHighlights } from "../hooks/use-highlights.ts";
import { useResetOnChange } from "../hooks/use-reset-on-change.ts";
import { useSiteEntries } from "../hooks/use-site-entries.ts";
import { CONTACT_LINK, type MenuSection, menuOf, type PanelId } from "./menu.ts";

interface PanelProps {
  section: MenuSection;
  open: boolean;
  onNavigate: () => void;
}

/** Who We Serve's panel shows the case study the firm put first, with its figure. */
function FeaturedCaseStudy({
  study,
  onNavigate,
}: {
  study: NonNullable<SiteHighlights["featured"]>;
  onNavigate: () => void;
}) {
  return (
    <div className="mega-panel__featured">
      <p className="mega-panel__eyebrow">Featured case study</p>
      <Link to={caseStudyPath(study.slug)} onClick={onNavigate}>
        {study.title}
      </Link>
      {study.outcome ? (
        <p className="mega-panel__outcome">
          <strong>{study.outcome.figure}</strong> {study.outcome.label}
        </p>
      ) : null}
    </div>
  );
}

function Panel({ section, open, onNavigate }: PanelProps) {
  const { featured } = useHighlights();
  return (
    <div className="mega-panel" id={`panel-${section.id}`} hidden={!open}>
      <div className="mega-panel__inner container">
        <div>
          <p className="mega-panel__title">
            <Link to={section.to} onClick={onNavigate}>
              {section.label}
            </Link>
          </p>
          {section.id === "serve" && featured ? (
            <FeaturedCaseStudy study={featured} onNavigate={onNavigate} />
          ) : null}
        </div>
        <div className="mega-panel__groups">
          {section.groups.map((group) => (
            <div
              key={group.label}
              className={`mega-panel__group ${group.links.length > 0 ? "mega-panel__group--entries" : ""}`}
            >
              <Link className="mega-panel__heading" to={group.to} onClick={onNavigate}>
                {group.label}
              </Link>
              <p className="mega-panel__line">{group.line}</p>
              {group.links.length > 0 ? (
                <ul>
                  {group.links.map((link) => (
                    <li key={link.label}>
                      <Link to={link.to} onClick={onNavigate}>
                        {link.label}
                      </Link>
                      <p className="mega-panel__line">{link.line}</p>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

export function MegaMenu() {
  // A panel the mouse opened stays open when its toggle is clicked as well;
  // only a panel opened by the toggle is closed by it.
  const [state, setState] = useState<{ id: PanelId; byHover: boolean } | null>(null);
  const open = state?.id ?? null;
  const close = () => setState(null);
  const toggles = useRef(new Map<PanelId, HTMLButtonElement>());
  const { key } = useLocation();
  const entries = useSiteEntries();
  const menu = useMemo(() => menuOf(entries), [entries]);
  // Every navigation (a new location key) closes the panel.
  useResetOnChange(key, close);

  const hoverOpen = (id: PanelId) => (event: PointerEvent) => {
    if (event.pointerType === "mouse") {
      setState((current) => (current?.id === id ? current : { id, byHover: true }));
    }
  };
  const hoverClose = (event: PointerEvent) => {
    if (event.pointerType === "mouse") close();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || open === null) return;
    toggles.current.get(open)?.focus();
    close();
  };

  return (
    <nav className="mega-nav" aria-label="Main">
      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: Esc anywhere in the menu closes the open panel */}
      <ul className="mega-nav__list" onKeyDown={onKeyDown}>
        {menu.map((section) => {
          const isOpen = open === section.id;
          return (
            // biome-ignore lint/a11y/noNoninteractiveElementInteractions: hover opens the panel for mouse users; the button serves keyboard and touch
            <li
              key={section.id}
              className={`mega-nav__item ${isOpen ? "is-open" : ""}`}
              onPointerEnter={hoverOpen(section.id)}
              onPointerLeave={hoverClose}
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget)) {
                  setState((current) => (current?.id === section.id ? null : current));
                }
              }}
            >
              <NavLink className="mega-nav__link" to={section.to} onClick={close}>
                {section.label}
              </NavLink>
              <button
                ref={(button) => {
                  if (button) toggles.current.set(section.id, button);
                }}
                type="button"
                className="mega-nav__toggle"
                aria-expanded={isOpen}
                aria-controls={`panel-${section.id}`}
                aria-label={`${section.label} menu`}
                onClick={() =>
                  setState((current) =>
                    current?.id === section.id && !current.byHover
                      ? null
                      : { id: section.id, byHover: false },
                  )
                }
              >
                <svg viewBox="0 0 12 8" width="12" height="8" aria-hidden="true">
                  <path d="M1 1.5 6 6.5l5-5" fill="none" stroke="currentColor" strokeWidth="1.8" />
                </svg>
              </button>
              <Panel section={section} open={isOpen} onNavigate={close} />
            </li>
          );
        })}
        <li>
          <Link className="button button--accent mega-nav__contact" to={CONTACT_LINK.to}>
            {CONTACT_LINK.label}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
