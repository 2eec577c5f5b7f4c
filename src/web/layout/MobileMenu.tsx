/**
 * Small screens (§2, §4): a collapsible menu with the four links, open or
 * closed. While open, its button shows a close icon (×); a tap
 * outside the menu, Esc, or any navigation closes it.
 */
import { useEffect, useRef, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { CONTACT_LINK, MENU } from "./menu.ts";

const LINKS = [...MENU.map(({ label, to }) => ({ label, to })), CONTACT_LINK];

export function MobileMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const { key } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: any navigation closes the menu
  useEffect(() => setOpen(false), [key]);

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
        aria-controls="mobile-menu"
        onClick={() => setOpen(!open)}
      >
        <span className="mobile-nav__bars" aria-hidden="true" />
        <span>Menu</span>
      </button>
      <ul id="mobile-menu" className="mobile-nav__list" hidden={!open}>
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
