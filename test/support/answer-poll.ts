/**
 * Waiting for a server to change its answer (a database coming back, a load
 * passing), through vitest's own poll rather than a loop of sleeps.
 */
import { vi } from "vitest";

/** Asks for `path` until its answer's status is `status`; fails after `limitMs` with the last answer seen. */
export function pollUntil(origin: string, path: string, status: number, limitMs = 8_000) {
  return vi.waitFor(
    async () => {
      const response = await fetch(`${origin}${path}`);
      if (response.status === status) return response;
      await response.arrayBuffer();
      throw new Error(`${path} still answers ${response.status}, not ${status}`);
    },
    { timeout: limitMs, interval: 50 },
  );
}
