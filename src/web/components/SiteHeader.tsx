import { Link, NavLink } from "react-router";
import { ROUTES } from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";

const NAV = [
  { to: ROUTES.weServe, label: "Who We Serve" },
  { to: ROUTES.weDo, label: "What We Do" },
  { to: ROUTES.weAre, label: "Who We Are" },
] as const;

export function SiteHeader() {
  return (
    <header className="site-header">
      <Link to={ROUTES.home} className="site-header__logo">
        <img src="/images/logo.svg" alt={SITE.firmName} width="160" height="40" />
      </Link>
      <nav aria-label="Main">
        <ul className="site-header__nav">
          {NAV.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to}>{item.label}</NavLink>
            </li>
          ))}
          <li>
            <Link to={ROUTES.contactUs} className="button">
              Contact Us
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
