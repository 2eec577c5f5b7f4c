/**
 * A stop by SIGTERM gives the balancers in front time to notice: /readyz
 * answers 503 at once while pages and the API are still served, for
 * SHUTDOWN_DRAIN_DELAY_MS; then the instance stops listening and exits
 * cleanly.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DRAINING_MESSAGE } from "../../../src/server/platform/ops/health.ts";
import { startServer } from "../../support/server-process.ts";

/** Long enough for a few local requests on a busy machine; the test waits for no part of it. */
const DRAIN_DELAY_MS = 6_000;

describe("stopping with a drain delay", () => {
  it("says it is not ready while it still serves, then exits", { timeout: 120_000 }, async () => {
    const server = await startServer({
      SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "drain-")), "site.db"),
      SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    });
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);

    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    const notReady = await vi.waitFor(
      async () => {
        const response = await fetch(`${server.origin}/readyz`);
        if (response.status !== 503) throw new Error(`/readyz answered ${response.status}`);
        return response.json();
      },
      { timeout: DRAIN_DELAY_MS, interval: 20 },
    );
    expect(notReady).toMatchObject({ message: DRAINING_MESSAGE });
    const page = await fetch(`${server.origin}/healthz`);
    expect(page.status).toBe(200);
    expect(Date.now() - signalledAt).toBeLessThan(DRAIN_DELAY_MS);

    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN_DELAY_MS);
    await expect(fetch(`${server.origin}/healthz`)).rejects.toThrow();
  });
});
