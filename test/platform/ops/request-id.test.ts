/**
 * Every answer names its request's id (X-Request-Id), and every log line of
 * the request carries it. The id a request arrives with is kept only when
 * the request came through one of the site's proxies (TRUST_PROXY) and is a
 * plain token; otherwise the site makes one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const [sqlite] = ENGINES;
if (!sqlite) throw new Error("SQLite is always among the engines");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PROXY_ID = "4f1c9a0e2b7d4c8e9a1b2c3d4e5f6a7b";

describe("the request id", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const ask = (app: TestApp, id: string, remoteAddress = "127.0.0.1") =>
    app.app.inject({
      method: "GET",
      url: "/api/v1/no-such-route",
      remoteAddress,
      headers: { "x-request-id": id },
    });

  it("is made by the site when no proxy is trusted, whatever the client sends", async () => {
    t = await startApp(sqlite);
    const response = await ask(t, PROXY_ID);
    expect(response.headers["x-request-id"]).toMatch(UUID);
    const plain = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(plain.headers["x-request-id"]).toMatch(UUID);
    expect(plain.headers["x-request-id"]).not.toBe(response.headers["x-request-id"]);
  });

  it("is the trusted proxy's, on the answer and on every log line of the request", async () => {
    t = await startApp(sqlite, { TRUST_PROXY: "127.0.0.1" });
    const response = await ask(t, PROXY_ID);
    expect(response.statusCode).toBe(404);
    expect(response.headers["x-request-id"]).toBe(PROXY_ID);
    const lines = t.logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.req?.url === "/api/v1/no-such-route" || line.reqId === PROXY_ID);
    // The request's lines: its arrival, the refusal, its completion.
    expect(lines.map((line) => line.msg)).toEqual([
      "incoming request",
      "client error",
      "request completed",
    ]);
    for (const line of lines) expect(line.reqId).toBe(PROXY_ID);
  });

  it("is made by the site when the request comes from an address that is not a trusted proxy", async () => {
    t = await startApp(sqlite, { TRUST_PROXY: "10.0.0.0/8" });
    expect((await ask(t, PROXY_ID, "192.0.2.7")).headers["x-request-id"]).toMatch(UUID);
    expect((await ask(t, PROXY_ID, "10.1.2.3")).headers["x-request-id"]).toBe(PROXY_ID);
  });

  it("is made by the site when the proxy's is not a plain token of at most 128 characters", async () => {
    t = await startApp(sqlite, { TRUST_PROXY: "1" });
    for (const odd of ["a b", "<script>", "x".repeat(129), "id;drop", "é"]) {
      expect((await ask(t, odd)).headers["x-request-id"]).toMatch(UUID);
    }
    expect((await ask(t, "x".repeat(128))).headers["x-request-id"]).toBe("x".repeat(128));
  });
});
