/**
 * A lazily loaded part that fails, or a routing failure, shows the
 * generic error screen with the error's text (and no stack trace), and a way
 * to try again. root.tsx exports ErrorBoundary as the root route's; the page
 * frame shows ErrorScreen itself when a page's code could not be downloaded
 * (use-route-code-failure.ts). The screen stands in for the whole page, header
 * and footer too (they may be what failed), so it carries the firm's logo and
 * name itself, on the site's own colours.
 */
import { isRouteErrorResponse, useRouteError } from "react-router";
import { COPYRIGHT_YEAR, ERROR_SCREEN_HEADING } from "../../shared/constants.ts";
import { SITE } from "../../shared/site.ts";
import { isSpace, trimEndWhere } from "../../shared/trim.ts";

/** How an address in an error's text ("…module: https://…/assets/x-1a2b.js") starts: it means nothing to a visitor. */
const ADDRESS_STARTS = ["https://", "http://", "/assets/"];

/** A word of the error's text up to the address it holds, and the bracket opening it. */
function beforeAddress(word: string): string {
  const at = Math.min(
    ...ADDRESS_STARTS.map((start) => word.indexOf(start)).filter((index) => index !== -1),
  );
  if (at === Number.POSITIVE_INFINITY) return word;
  return word.slice(0, word[at - 1] === "(" ? at - 1 : at);
}

/** The error's first line, without the addresses it names. */
export function errorText(message: string): string {
  const firstLine = message.split("\n", 1)[0] ?? "";
  const words = firstLine
    .split(/\s/)
    .map(beforeAddress)
    .filter((word) => word !== "");
  return (
    trimEndWhere(words.join(" "), (character) => character === ":" || isSpace(character)) ||
    "Something went wrong."
  );
}

/** Loads `href` afresh: the visitor asked for it, so it is no silent reload. */
function tryAgain(href: string) {
  window.location.assign(href);
}

export function ErrorScreen({ text, retryHref }: { text: string; retryHref?: string }) {
  return (
    <div className="error-screen">
      <header className="error-screen__bar">
        <div className="container">
          {/* A plain link: the app's router may be what failed. */}
          <a href="/" className="error-screen__logo">
            <img src="/images/logo.svg" alt={`${SITE.firmName}, home`} width="154" height="36" />
          </a>
        </div>
      </header>
      <main className="error-screen__main container">
        <h2>{ERROR_SCREEN_HEADING}</h2>
        <h3>{errorText(text)}</h3>
        <p className="error-screen__actions">
          <button
            type="button"
            className="button button--accent"
            onClick={() => tryAgain(retryHref ?? window.location.href)}
          >
            Try again
          </button>
          <a href="/">Back to the home page</a>
        </p>
      </main>
      <footer className="error-screen__base">
        <p className="container">
          © {COPYRIGHT_YEAR} {SITE.firmName}
        </p>
      </footer>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return <ErrorScreen text={text} />;
}
