import { type ReactNode, useEffect } from "react";
import { Links, Meta, Outlet, Scripts } from "react-router";
import { ACCENT_COLOR } from "../shared/constants.ts";
import { designTokensCss } from "../shared/design-tokens.ts";
import { AlertProvider } from "./app/AlertProvider.tsx";
import { useAnchorScroll } from "./app/useAnchorScroll.ts";
import { SiteFooter } from "./layout/SiteFooter.tsx";
import { SiteHeader } from "./layout/SiteHeader.tsx";
import styles from "./styles/index.css?inline";

export { ErrorBoundary } from "./app/ErrorBoundary.tsx";

/** The design tokens as custom properties, then every stylesheet of the site. */
const pageStyles = `${designTokensCss()}\n${styles}`;

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={ACCENT_COLOR} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, compiled at build time */}
        <style dangerouslySetInnerHTML={{ __html: pageStyles }} />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  useAnchorScroll();
  // Marks the page interactive: browser tests wait for it before acting.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
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
    </AlertProvider>
  );
}
