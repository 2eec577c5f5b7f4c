/**
 * Load shedding: when the event loop falls behind, the server answers 503
 * with Retry-After at once instead of making everyone queue, keeps answering
 * /healthz, and serves again by itself once the load is gone.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  OVERLOADED_MESSAGE,
  RETRY_AFTER_SECONDS,
} from "../../../src/server/platform/ops/overload.ts";
import { pollUntil } from "../../support/answer-poll.ts";
import { type ServerProcess, startServer } from "../../support/server-process.ts";

const PAGE_OF_CONTENT = "/api/v1/teams/";

describe("a server process whose event loop falls behind", () => {
  const dir = mkdtempSync(join(tmpdir(), "overload-"));
  const cue = join(dir, "block-now");
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer(
      {
        SQLITE_FILE: join(dir, "site.db"),
        MAX_EVENT_LOOP_DELAY_MS: "50",
        BLOCK_ON_CUE: cue,
      },
      { preload: ["./test/support/block-on-cue.ts"] },
    );
  });
  afterAll(async () => {
    rmSync(cue, { force: true });
    server.child.kill("SIGTERM");
    await server.exited;
  });

  it("answers 503 with Retry-After while overloaded, /healthz still 200, then recovers", async () => {
    // A busy machine can hold the event loop back before the cue: the page
    // must first be served, however long that takes to be so.
    await pollUntil(server.origin, PAGE_OF_CONTENT, 200);

    writeFileSync(cue, "");
    const refused = await pollUntil(server.origin, PAGE_OF_CONTENT, 503);
    expect(refused.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(await refused.json()).toEqual({ message: OVERLOADED_MESSAGE });
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(503);
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);

    rmSync(cue);
    const served = await pollUntil(server.origin, PAGE_OF_CONTENT, 200);
    expect(Array.isArray(await served.json())).toBe(true);
  });
});
