/**
 * Slow clients: a request that declares a body and sends it byte by byte, or
 * headers that never end, held a socket for as long as the client liked
 * (about 20,000 of them took the site down). With the time-outs each is
 * answered 408 and closed, and the site keeps answering meanwhile. Those 408s,
 * and the parser's other refusals (not HTTP, headers too large), carry the
 * site's JSON `{message}` like every other failure.
 */
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientErrorAnswer } from "../../../src/server/platform/ops/client-errors.ts";
import { clientFor, type ServerProcess, startServer } from "../../support/server-process.ts";

const SLOW_CLIENTS = 50;
const REQUEST_TIMEOUT_MS = 1_000;
const HEADERS_TIMEOUT_MS = 500;
/** Node checks the time-outs every quarter of the headers time-out (platform/ops/timeouts.ts). */
const CHECK_INTERVAL_MS = HEADERS_TIMEOUT_MS / 4;
/** For a machine busy with other work. */
const SLACK_MS = 750;

interface Outcome {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
  closedAfterMs: number;
}

function parseAnswer(received: string): Omit<Outcome, "closedAfterMs"> {
  const [head = "", body = ""] = received.split("\r\n\r\n");
  const [statusLine = "", ...fields] = head.split("\r\n");
  const headers = Object.fromEntries(
    fields.map((field) => {
      const colon = field.indexOf(":");
      return [field.slice(0, colon).toLowerCase(), field.slice(colon + 1).trim()];
    }),
  );
  return { statusLine, headers, body };
}

/** The answer a request the parser gave up on must carry: our message, and the connection closed. */
function expectSiteAnswer(outcome: Outcome, status: number, errorCode: string) {
  expect(outcome.statusLine).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
  expect(outcome.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(outcome.headers.connection).toBe("close");
  const { message } = clientErrorAnswer(errorCode);
  expect(JSON.parse(outcome.body)).toEqual({ message });
  expect(outcome.closedAfterMs).toBeLessThan(Infinity);
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
  return { ...parseAnswer(received), closedAfterMs };
}

function startSiteServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer({
    SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "slow-clients-")), "site.db"),
    RATE_LIMIT_PER_MINUTE: "1000",
    ...env,
  });
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

describe("slow clients against a server process", () => {
  let server: ServerProcess;
  let writeHeaders: Record<string, string>;
  beforeAll(async () => {
    server = await startSiteServer({
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    });
    writeHeaders = (await clientFor(server.origin)).headers;
  });
  afterAll(() => stop(server));

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
      expectSiteAnswer(outcome, 408, "ERR_HTTP_REQUEST_TIMEOUT");
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
    expectSiteAnswer(outcome, 408, "ERR_HTTP_REQUEST_TIMEOUT");
    expect(outcome.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
  });
});

// A request the parser refuses is answered at once; on a server with the
// short time-outs above, a busy machine could hold it past the headers
// time-out and have it answered 408 instead.
describe("malformed requests against a server process", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startSiteServer();
  });
  afterAll(() => stop(server));

  it("answers a request line that is not HTTP with 400 and our message, and closes", async () => {
    const outcome = await sendAndStall(
      server.origin,
      "HELLO THERE\r\n\r\n",
      REQUEST_TIMEOUT_MS * 3,
    );
    expectSiteAnswer(outcome, 400, "HPE_INVALID_METHOD");
  });

  it("answers headers over Node's size limit with 431 and our message, and closes", async () => {
    const oversized = `X-Padding: ${"a".repeat(20_000)}`;
    const outcome = await sendAndStall(
      server.origin,
      `GET / HTTP/1.1\r\nHost: localhost\r\n${oversized}\r\n\r\n`,
      REQUEST_TIMEOUT_MS * 3,
    );
    expectSiteAnswer(outcome, 431, "HPE_HEADER_OVERFLOW");
  });
});
