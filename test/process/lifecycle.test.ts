import { once } from "node:events";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { clientFor, runServer, startServer } from "../support/server-process.ts";

describe("start-up", () => {
  it.each([
    ["PORT", "not-a-port"],
    ["DATABASE_URL", "mysql://db/site"],
  ])("exits non-zero with one line naming %s=%s", async (name, value) => {
    const child = runServer({ [name]: value });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const [code] = await once(child, "exit");
    expect(code).not.toBe(0);
    expect(stderr.trim().split("\n")).toEqual([expect.stringContaining(`${name}="${value}"`)]);
  });
});

describe.each(ENGINES)("server process on $engine", (engine) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await engine.create();
  });
  afterAll(() => testDb.drop());

  it("keeps an answered subscription and inquiry when killed with SIGKILL", async () => {
    const first = await startServer(testDb.env);
    const client = await clientFor(first.origin);
    expect((await client.post("/api/v1/subscribe?emailId=durable%40example.com")).status).toBe(201);
    const sent = await client.post("/api/v1/send-comment", VALID_INQUIRY);
    expect(sent.status).toBe(200);
    const { id } = (await sent.json()) as { id: number };
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull();

    const second = await startServer(testDb.env);
    const again = await clientFor(second.origin);
    expect((await again.post("/api/v1/subscribe?emailId=durable%40example.com")).status).toBe(409);
    const next = await again.post("/api/v1/send-comment", VALID_INQUIRY);
    expect(((await next.json()) as { id: number }).id).toBeGreaterThan(id);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "on %s finishes an in-flight request, then exits 0",
    async (signal) => {
      const server = await startServer(testDb.env);
      const { headers } = await clientFor(server.origin);
      const body = JSON.stringify(VALID_INQUIRY);
      // The request has reached the server (headers and half the body) when the signal arrives.
      const request = http.request(`${server.origin}/api/v1/send-comment`, {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      });
      const answered = once(request, "response").then(
        ([response]) => response.statusCode as number,
      );
      request.write(body.slice(0, 20));
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.child.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 300));
      request.end(body.slice(20));
      expect(await answered).toBe(200);
      expect(await server.exited).toBe(0);
    },
  );
});
