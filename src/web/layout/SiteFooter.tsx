import { Link } from "react-router";
import { COPYRIGHT_YEAR } from "../../shared/constants.ts";
import { INSIGHT_PATH, PRIVACY_PATH, ROUTES } from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import { NEWSLETTER_ANCHOR } from "../features/insight/anchors.ts";
import { SubscribeForm } from "../features/newsletter/SubscribeForm.tsx";
import { useHighlights } from "../hooks/use-highlights.ts";
import { useSiteFacts } from "../hooks/use-site-facts.ts";

export function SiteFooter() {
  const { mission, newsletterInvitation, networkUrl } = useSiteFacts();
  // Only once an issue was sent is there a past issue to read.
  const hasPastIssues = useHighlights().latestIssue !== null;
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Link to={ROUTES.home}>
            <img
              src="/images/logo-light.svg"
              alt={`${SITE.firmName}, home`}
              width="154"
              height="36"
              loading="lazy"
            />
          </Link>
          <p className="site-footer__mission">{mission}</p>
        </div>
        <div className="site-footer__newsletter" id={NEWSLETTER_ANCHOR}>
          <h2 className="site-footer__heading">Insight newsletter</h2>
          <p>
            {newsletterInvitation}
            {hasPastIssues && (
              <>
                {" "}
                {/* The archive is the server's page (features/insight/load-from-server.ts): load it. */}
                <Link reloadDocument to={INSIGHT_PATH} className="site-footer__archive">
                  Read past issues
                </Link>
              </>
            )}
          </p>
          <SubscribeForm />
        </div>
      </div>
      <div className="container site-footer__base">
        <div className="site-footer__legal">
          <p>
            © {COPYRIGHT_YEAR} {SITE.firmName}
          </p>
          {/* The notice is the server's page (routes/privacy.tsx): load it. */}
          <Link reloadDocument to={PRIVACY_PATH}>
            Privacy notice
          </Link>
        </div>
        <a
          className="site-footer__network"
          href={networkUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              fill="currentColor"
              d="M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.85 0-2.14 1.45-2.14 2.94v5.67H9.34V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28ZM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13ZM7.12 20.45H3.56V9h3.56v11.45ZM22.22 0H1.77C.79 0 0 .77 0 1.73v20.54C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.73V1.73C24 .77 23.2 0 22.22 0Z"
            />
          </svg>
          {SITE.networkName}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
    </footer>
  );
}
