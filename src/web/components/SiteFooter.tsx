import { COPYRIGHT_YEAR } from "../../shared/constants.ts";
import { SITE } from "../../shared/site.ts";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <img src="/images/logo-light.svg" alt={SITE.firmName} width="160" height="40" />
      <p>{SITE.newsletterInvitation}</p>
      <a href={SITE.networkUrl} target="_blank" rel="noopener noreferrer">
        {SITE.networkName}
      </a>
      <p>
        © {COPYRIGHT_YEAR} {SITE.firmName}
      </p>
    </footer>
  );
}
