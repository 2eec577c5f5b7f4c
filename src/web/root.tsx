import { type CSSProperties, type ReactNode, useEffect } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, useRouteError } from "react-router";
import { ACCENT_COLOR, ERROR_SCREEN_HEADING, SCROLL_ANIMATION } from "../shared/constants.ts";
import { SiteFooter } from "./components/SiteFooter.tsx";
import { SiteHeader } from "./components/SiteHeader.tsx";
import { AlertProvider } from "./features/alerts/AlertProvider.tsx";
import { useAnchorScroll } from "./features/anchors/useAnchorScroll.ts";
import styles from "./styles/index.css?inline";

const themeVariables = {
  "--accent": ACCENT_COLOR,
  "--motion-duration": `${SCROLL_ANIMATION.durationMs}ms`,
} as CSSProperties;

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" style={themeVariables}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={ACCENT_COLOR} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, compiled at build time */}
        <style dangerouslySetInnerHTML={{ __html: styles }} />
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

/**
 * §8: a lazily loaded part that fails, or a routing failure, shows the
 * generic error screen with the error's text (and no stack trace).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="error-screen container">
      <h2>{ERROR_SCREEN_HEADING}</h2>
      <h3>{text}</h3>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </main>
  );
}
