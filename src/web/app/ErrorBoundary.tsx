/**
 * §8: a lazily loaded part that fails, or a routing failure, shows the
 * generic error screen with the error's text (and no stack trace), and a way
 * to try again. root.tsx exports ErrorBoundary as the root route's; the page
 * frame shows ErrorScreen itself when a page's code could not be downloaded
 * (useRouteCodeFailure.ts).
 */
import { isRouteErrorResponse, useRouteError } from "react-router";
import { ERROR_SCREEN_HEADING } from "../../shared/constants.ts";

/** Loads `href` afresh: the visitor asked for it, so it is no silent reload. */
function tryAgain(href: string) {
  window.location.assign(href);
}

export function ErrorScreen({ text, retryHref }: { text: string; retryHref?: string }) {
  return (
    <main className="error-screen container">
      <h2>{ERROR_SCREEN_HEADING}</h2>
      <h3>{text}</h3>
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
