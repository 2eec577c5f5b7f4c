/**
 * The server's log is written to standard output without ever waiting for
 * its reader: when the reader stalls (a log shipper that hangs) and then goes
 * away, the server goes on answering, drops the lines it cannot write and
 * says how many once it can write again, and exits on SIGTERM within its
 * shutdown time, whether the reader is stalled or gone.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "../../support/server-process.ts";

const SHUTDOWN_TIMEOUT_MS = 3_000;
/** A request that leaves several long lines at trace level (its path is logged whole). */
const LONG_PATH = `/api/v1/${"x".repeat(6_000)}`;
/** Enough long lines to fill the pipe, the reader's buffer and the server's own many times over. */
const FILLING_REQUESTS = 400;
/**
 * A server that waits for its log never answers; this bound only ends such a
 * wait, far above a busy machine's slowest real answer.
 */
const ANSWER_LIMIT_MS = 10_000;

let server: ServerProcess | undefined;
afterEach(async () => {
  server?.child.kill("SIGKILL");
  await server?.exited;
  server = undefined;
});

async function start(): Promise<ServerProcess> {
  server = await startServer({
    SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "log-reader-")), "site.db"),
    LOG_LEVEL: "trace",
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
  });
  return server;
}

/** Stops reading the server's output, then makes it log far more than any buffer holds. */
async function stallAndFill(running: ServerProcess) {
  running.pauseLogs();
  let sent = 0;
  const client = async () => {
    while (sent < FILLING_REQUESTS) {
      sent += 1;
      const answer = await fetch(`${running.origin}${LONG_PATH}`, {
        signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
      });
      await answer.arrayBuffer();
    }
  };
  await Promise.all([client(), client(), client(), client()]);
}

async function answersPromptly(running: ServerProcess) {
  const answer = await fetch(`${running.origin}/healthz`, {
    signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
  });
  expect(answer.status).toBe(200);
}

/** What `promise` resolves with, or a failure naming `what` after `limitMs`. */
async function within<T>(promise: Promise<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const exitWithinShutdownTime = (running: ServerProcess) =>
  within(running.exited, SHUTDOWN_TIMEOUT_MS, "exit after SIGTERM");

describe("a server whose log reader stalls", () => {
  it("goes on answering, and says how many lines it dropped once the reader is back", async () => {
    const running = await start();
    await stallAndFill(running);
    await answersPromptly(running);

    running.resumeLogs();
    await answersPromptly(running);
    const report = await within(
      running.logged((line) => Number(line.droppedLines) > 0),
      10_000,
      "line counting the dropped lines",
    );
    expect(report).toMatchObject({ level: 40, droppedLines: expect.any(Number) });
  });

  it("exits on SIGTERM within its shutdown time while the reader stays stalled", async () => {
    const running = await start();
    await stallAndFill(running);
    running.child.kill("SIGTERM");
    expect(await exitWithinShutdownTime(running)).toBe(0);
  });

  it("keeps answering once the reader is gone, and exits on SIGTERM within its shutdown time", async () => {
    const running = await start();
    await stallAndFill(running);
    running.closeLogs();
    for (let i = 0; i < 20; i += 1) await answersPromptly(running);
    running.child.kill("SIGTERM");
    expect(await exitWithinShutdownTime(running)).toBe(0);
  });
});
