/**
 * A client that sends a write's headers and part of its body, then resets
 * the connection (a hostile or broken client): the server ends the request
 * as the client's doing. By the time the server reads the request, the
 * socket has lost its peer's address, which the rate limit keys on; that
 * must not fail as an unexpected error.
 */
import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openSession, startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";

const BODY = JSON.stringify(VALID_INQUIRY);

type LogLine = { level: number; msg: string; reqId?: string; res?: { statusCode: number } };

/** The log lines of the request to `url`, once it has completed; fails after `limitMs`. */
async function requestLines(t: TestApp, url: string, limitMs = 10_000): Promise<LogLine[]> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const lines = t.logs.map((line) => JSON.parse(line) as LogLine & { req?: { url: string } });
    const id = lines.find((line) => line.req?.url === url)?.reqId;
    const ofRequest = lines.filter((line) => id !== undefined && line.reqId === id);
    if (ofRequest.some((line) => line.msg === "request completed")) return ofRequest;
    if (Date.now() > deadline) throw new Error(`the request to ${url} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(ENGINES)("a write whose connection is reset mid-body, on $engine", (engine) => {
  let t: TestApp;
  afterEach(() => t.close());

  it("ends as the client's doing, with no unexpected failure", async () => {
    t = await startApp(engine);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const session = await openSession(t.app);

    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => {});
    await once(socket, "connect");
    socket.write(
      [
        "POST /api/v1/send-comment HTTP/1.1",
        `Host: 127.0.0.1:${port}`,
        `Cookie: ${session.cookie}`,
        `X-XSRF-Token: ${session.token}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(BODY)}`,
        "",
        BODY.slice(0, 20),
      ].join("\r\n"),
    );
    // The reset follows the bytes at once: the server reads the headers from
    // a connection that is already gone.
    socket.resetAndDestroy();

    const lines = await requestLines(t, "/api/v1/send-comment");
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.find((line) => line.msg === "request completed")?.res?.statusCode).toBe(499);
  });
});
