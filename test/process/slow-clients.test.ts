/**
 * Slow clients: a request that declares a body and sends it byte by byte, or
 * headers that never end, held a socket for as long as the client liked
 * (about 20,000 of them took the site down). With the time-outs each is
 * answered 408 and closed, and the site keeps answering meanwhile.
 */
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, type ServerProcess, startServer } from "../support/server-process.ts";

const SLOW_CLIENTS = 50;
const REQUEST_TIMEOUT_MS = 1_000;
const HEADERS_TIMEOUT_MS = 500;
/** Node checks the time-outs every quarter of the headers time-out (ops/timeouts.ts). */
const CHECK_INTERVAL_MS = HEADERS_TIMEOUT_MS / 4;
/** For a machine busy with other work. */
const SLACK_MS = 750;

interface Outcome {
  statusLine: string;
  closedAfterMs: number;
}

/**
 * Opens a connection, sends `head` and stops. Resolves when the server closes
 * it, with the first line of the answer; or after `giveUpMs` with the
 * connection still open (then destroyed), as without time-outs.
 */
async function sendAndStall(origin: string, head: string, giveUpMs: number): Promise<Outcome> {
  const { port, hostname } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  socket.setEncoding("latin1");
  socket.on("error", () => {});
  let received = "";
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  await once(socket, "connect");
  socket.write(head);
  const sentAt = Date.now();
  const closed = once(socket, "close").then(() => Date.now() - sentAt);
  const gaveUp = new Promise<number>((resolve) => setTimeout(resolve, giveUpMs, Infinity));
  const closedAfterMs = await Promise.race([closed, gaveUp]);
  socket.destroy();
  return { statusLine: received.split("\r\n")[0] ?? "", closedAfterMs };
}

describe("slow clients against a server process", () => {
  let server: ServerProcess;
  let writeHeaders: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({
      SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "slow-clients-")), "site.db"),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      RATE_LIMIT_PER_MINUTE: "1000",
    });
    writeHeaders = (await clientFor(server.origin)).headers;
  });
  afterAll(async () => {
    server.child.kill("SIGTERM");
    await server.exited;
  });

  it(`answers /healthz while ${SLOW_CLIENTS} bodies trickle in, and closes each with 408 in time`, async () => {
    const head = [
      "POST /api/v1/send-comment HTTP/1.1",
      `Host: ${new URL(server.origin).host}`,
      "Content-Type: application/json",
      "Content-Length: 1000",
      `Cookie: ${writeHeaders.cookie}`,
      `X-XSRF-TOKEN: ${writeHeaders["x-xsrf-token"]}`,
      "",
      '{"comment',
    ].join("\r\n");
    let closed = 0;
    const slow = Array.from({ length: SLOW_CLIENTS }, () =>
      sendAndStall(server.origin, head, REQUEST_TIMEOUT_MS * 3).then((outcome) => {
        closed += 1;
        return outcome;
      }),
    );

    const health = await fetch(`${server.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(closed).toBe(0);

    for (const outcome of await Promise.all(slow)) {
      expect(outcome.statusLine).toBe("HTTP/1.1 408 Request Timeout");
      expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - CHECK_INTERVAL_MS);
      expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    }
  });

  it("closes a connection whose headers never end with 408 after the headers time-out", async () => {
    const outcome = await sendAndStall(
      server.origin,
      "GET / HTTP/1.1\r\nHost: localhost\r\nAccept: text/ht",
      REQUEST_TIMEOUT_MS * 3,
    );
    expect(outcome.statusLine).toBe("HTTP/1.1 408 Request Timeout");
    expect(outcome.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
  });
});
