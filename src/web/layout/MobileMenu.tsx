/**
 * Small screens: a collapsible menu with the four links, open or
 * closed. While open, its button shows a close icon (×) and reads "Close
 * menu"; a tap outside the menu, Esc, or any navigation closes it. On a short
 * screen the open menu scrolls within itself (navigation.css).
 *
 * Without JavaScript the button cannot work, so a link in its place opens
 * the list by its anchor (#mobile-menu, shown by CSS :target); the page's
 * `js` class (root.tsx) tells which of the two is shown.
 */
import { useEffect, useRef, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { useResetOnChange } from "../hooks/use-reset-on-change.ts";
import { CONTACT_LINK, SECTIONS } from "./menu.ts";

const LIST_ID = "mobile-menu";
const LINKS = [...SECTIONS.map(({ label, to }) => ({ label, to })), CONTACT_LINK];

export function MobileMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const { key } = useLocation();

  useResetOnChange(key, () => setOpen(false));

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOutside);
    return () => document.removeEventListener("pointerdown", closeOutside);
  }, [open]);

  return (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: Esc anywhere in the menu closes it
    <nav
      ref={nav}
      className="mobile-nav"
      aria-label="Main"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="mobile-nav__toggle"
        aria-expanded={open}
        aria-controls={LIST_ID}
        aria-label={open ? "Close menu" : undefined}
        onClick={() => setOpen(!open)}
      >
        <span className="mobile-nav__bars" aria-hidden="true" />
        <span>{open ? "Close" : "Menu"}</span>
      </button>
      <a href={`#${LIST_ID}`} className="mobile-nav__toggle mobile-nav__fallback">
        <span className="mobile-nav__bars" aria-hidden="true" />
        <span>Menu</span>
      </a>
      <ul id={LIST_ID} className="mobile-nav__list" hidden={!open}>
        {LINKS.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} onClick={() => setOpen(false)}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
