import { Link } from "react-router";
import { ROUTES } from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import { MegaMenu } from "./MegaMenu.tsx";
import { MobileMenu } from "./MobileMenu.tsx";

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="site-header__bar container">
        <Link to={ROUTES.home} className="site-header__logo">
          <img src="/images/logo.svg" alt={`${SITE.firmName}, home`} width="154" height="36" />
        </Link>
        <MegaMenu />
        <MobileMenu />
      </div>
    </header>
  );
}
