/**
 * React.lazy with a time-out (shared/constants.ts): a part that has not loaded after
 * 120 000 ms fails, and the route's error screen shows instead.
 */
import { type ComponentType, lazy } from "react";
import { LAZY_LOAD_TIMEOUT_MS } from "../../shared/constants.ts";

/** Settles like `loading`, or rejects once `timeoutMs` has passed without it settling. */
export function withTimeout<T>(loading: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Loading a part of the page timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    loading.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

// biome-ignore lint/suspicious/noExplicitAny: React.lazy accepts components with any props
export function lazyWithTimeout<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  timeoutMs = LAZY_LOAD_TIMEOUT_MS,
) {
  return lazy(() => withTimeout(load(), timeoutMs));
}
