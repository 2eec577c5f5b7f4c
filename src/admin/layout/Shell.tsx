/**
 * The frame of every signed-in screen: the console's name, the areas the
 * person's role opens, and signing out. On a phone the areas scroll
 * sideways in one row under the bar. Banners above every screen tell when
 * mail only goes to a folder on the server, and of inquiries the firm was
 * not notified of until someone opens them; the release the server runs is
 * at the foot.
 */
import { NavLink, Outlet } from "react-router";
import { hasRole, ROLE_LABELS } from "../../shared/admin/roles.ts";
import { SITE } from "../../shared/site.ts";
import { useMe, useSession } from "../auth/session.tsx";
import { AREAS } from "./areas.ts";
import { ConsoleFooter } from "./ConsoleFooter.tsx";
import { MailNotSentBanner } from "./MailNotSentBanner.tsx";
import { UnnotifiedBanner } from "./UnnotifiedBanner.tsx";
import { useNewInquiryCount } from "./use-new-inquiry-count.ts";

export function Shell() {
  const me = useMe();
  const { signOut } = useSession();
  const newInquiries = useNewInquiryCount();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-bar">
        <p className="shell-brand">
          {SITE.shortName} <span>console</span>
        </p>
        <nav aria-label="Console" className="shell-nav">
          <ul>
            {AREAS.filter((area) => hasRole(me.role, area.role)).map((area) => (
              <li key={area.path}>
                <NavLink to={`/${area.path}`}>
                  {area.label}
                  {area.path === "inquiries" && newInquiries ? (
                    <span className="nav-count">
                      <span className="visually-hidden">, </span>
                      {newInquiries}
                      <span className="visually-hidden"> new</span>
                    </span>
                  ) : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="shell-user">
          <span title={ROLE_LABELS[me.role]}>
            {me.name || me.email} · {me.role}
          </span>
          <a className="shell-link" href="/" target="_blank" rel="noreferrer">
            View site
          </a>
          <button type="button" className="button button-quiet" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        <MailNotSentBanner mailNotSent={me.mailNotSent} />
        <UnnotifiedBanner />
        <Outlet />
      </main>
      <ConsoleFooter />
    </>
  );
}
