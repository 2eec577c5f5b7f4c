/**
 * §8: a lazily loaded part that fails, or a routing failure, shows the
 * generic error screen with the error's text (and no stack trace).
 * root.tsx exports it as the root route's ErrorBoundary.
 */
import { isRouteErrorResponse, useRouteError } from "react-router";
import { ERROR_SCREEN_HEADING } from "../../shared/constants.ts";

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
