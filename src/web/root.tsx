import { type ReactNode, useEffect } from "react";
import {
  Links,
  type LinksFunction,
  type LoaderFunctionArgs,
  Meta,
  Outlet,
  Scripts,
  useNavigation,
} from "react-router";
import { ACCENT_COLOR } from "../shared/constants.ts";
import { designTokensCss } from "../shared/design-tokens.ts";
import { AlertProvider } from "./app/AlertProvider.tsx";
import { ErrorScreen } from "./app/ErrorBoundary.tsx";
import { useAnchorScroll } from "./app/use-anchor-scroll.ts";
import { usePageViewBeacon } from "./app/use-page-view-beacon.ts";
import { ROUTE_CODE_FAILURE, useRouteCodeFailure } from "./app/use-route-code-failure.ts";
import { useRouteFocus } from "./app/use-route-focus.ts";
import { carouselLayoutCss } from "./features/leadership/carousel-layout.ts";
import { useCaptcha } from "./hooks/use-form-defence.ts";
import { SiteFooter } from "./layout/SiteFooter.tsx";
import { SiteHeader } from "./layout/SiteHeader.tsx";
import { rootSeoData, SITE_LINKS } from "./lib/seo.ts";
import { readSiteEntries } from "./lib/site-entries.ts";
import { FONT_PRELOADS } from "./styles/fonts.ts";
import styles from "./styles/index.css?inline";

export { ErrorBoundary } from "./app/ErrorBoundary.tsx";

/**
 * The site's public origin, for every page's canonical address (lib/seo.ts);
 * the site facts the firm edits in the console, read from the database
 * (hooks/use-site-facts.ts, and lib/seo.ts for the head); the entries the menu,
 * the inquiry form and the counts in words name (hooks/use-site-entries.ts);
 * and the token of the forms' hidden field (ADR 004; hooks/use-form-submission.ts).
 */
export async function loader(args: LoaderFunctionArgs) {
  return {
    ...rootSeoData(args),
    facts: await args.context.content.facts(),
    highlights: await args.context.content.highlights(),
    entries: await readSiteEntries(args.context.content),
    formToken: args.context?.forms?.token ?? "",
    // The forms' CAPTCHA widget, only while the server has one switched on (ADR 017).
    captcha: args.context?.captcha ?? null,
  };
}
// The browser never asks the server for these again: every page it renders
// after the first takes them from the first page's data. A change to the
// facts or the entries shows on the visitor's next page load.
export const shouldRevalidate = () => false;

/** The web fonts the first paint needs (styles/fonts.css), fetched with the page. */
export const links: LinksFunction = () => [...FONT_PRELOADS, ...SITE_LINKS];

const HAS_SCRIPT = 'document.documentElement.classList.add("js")';

/** The page's one style element, found by the browser's script. */
const STYLES_ID = "site-styles";

/**
 * The design tokens as custom properties, the carousel's layout (both made
 * from the fixed values in constants.ts), then every stylesheet of the site: the page's one
 * inline style, allowed by its hash in the Content-Security-Policy. Only the
 * server's bundle holds it; the browser's script takes the text the server
 * sent, so it does not carry the stylesheet a second time, and an element
 * React renders again (as the error screen does) has the same text and hash.
 */
const pageStyles = import.meta.env.SSR
  ? `${designTokensCss()}\n${carouselLayoutCss()}\n${styles}`
  : (document.getElementById(STYLES_ID)?.textContent ?? "");

export function Layout({ children }: { children: ReactNode }) {
  return (
    // The head script adds the `js` class before React hydrates, on purpose.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={ACCENT_COLOR} />
        {/* Before the first paint: effects that need script (fade-ins, flips, the menu
            button) apply only under .js, so without script every part shows as it is. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant one-liner, allowed by its hash in the CSP */}
        <script dangerouslySetInnerHTML={{ __html: HAS_SCRIPT }} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, compiled at build time */}
        <style id={STYLES_ID} dangerouslySetInnerHTML={{ __html: pageStyles }} />
        <CaptchaScript />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  );
}

/** The CAPTCHA service's script, on every page (the footer's form is on each) while it is on. */
function CaptchaScript() {
  const captcha = useCaptcha();
  return captcha ? <script src={captcha.scriptUrl} async defer /> : null;
}

export default function App() {
  useAnchorScroll();
  const pageAnnouncement = useRouteFocus();
  usePageViewBeacon();
  // Marks the page interactive: browser tests wait for it before acting.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const codeFailed = useRouteCodeFailure();
  const going = useNavigation().location;
  if (codeFailed) {
    const target = going ? `${going.pathname}${going.search}${going.hash}` : undefined;
    return <ErrorScreen text={ROUTE_CODE_FAILURE} retryHref={target} />;
  }
  return (
    <AlertProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
      <p className="visually-hidden" role="status" data-testid="page-announcement">
        {pageAnnouncement}
      </p>
    </AlertProvider>
  );
}
