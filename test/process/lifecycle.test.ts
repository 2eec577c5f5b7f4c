import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SQLITE_ONLY, type TestDatabase } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import {
  clientFor,
  runServer,
  type ServerProcess,
  startServer,
} from "../support/server-process.ts";

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

/**
 * Starts an inquiry whose body is only half sent; resolves with the status of
 * its answer once `finish` sends the rest.
 */
async function halfSentInquiry(server: ServerProcess) {
  const { headers } = await clientFor(server.origin);
  const body = JSON.stringify(VALID_INQUIRY);
  const request = http.request(`${server.origin}/api/v1/send-comment`, {
    method: "POST",
    headers: {
      ...headers,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    },
  });
  request.on("error", () => {});
  const answered = once(request, "response").then(([response]) => response.statusCode as number);
  request.write(body.slice(0, 20));
  // The server has the request (its headers) before anything else happens.
  await server.logged(
    (line) =>
      line.msg === "incoming request" &&
      (line.req as { url?: string } | undefined)?.url === "/api/v1/send-comment",
  );
  return { answered, finish: () => request.end(body.slice(20)) };
}

const shuttingDown = (line: Record<string, unknown>) =>
  String(line.msg).startsWith("shutting down");

describe.each(SQLITE_ONLY)("server process on $engine", (engine) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await engine.create();
  });
  afterAll(() => testDb.drop());

  // What this proves: a 2xx is sent only after the commit, so a crashed
  // process loses nothing it answered. It cannot tell whether the commit
  // would survive a power cut (synchronous=FULL against NORMAL): the kernel
  // keeps written pages when only the process dies. See ADR 003.
  it("keeps an answered subscription and inquiry when the process is killed with SIGKILL", async () => {
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
      const inquiry = await halfSentInquiry(server);
      server.child.kill(signal);
      await server.logged(shuttingDown);
      inquiry.finish();
      expect(await inquiry.answered).toBe(200);
      expect(await server.exited).toBe(0);
    },
  );

  it("exits at once with code 1 on a second signal, without waiting for the request", async () => {
    const server = await startServer(testDb.env);
    const inquiry = await halfSentInquiry(server);
    server.child.kill("SIGTERM");
    await server.logged(shuttingDown);
    server.child.kill("SIGTERM");
    await expect(inquiry.answered).rejects.toThrow(/socket hang up/);
    expect(await server.exited).toBe(1);
  });

  it("on an uncaught error logs it, finishes in-flight requests, and exits 1", async () => {
    const cue = join(mkdtempSync(join(tmpdir(), "cue-")), "throw-now");
    const server = await startServer(
      { ...testDb.env, THROW_ON_CUE: cue },
      { preload: ["./test/support/throw-on-cue.ts"] },
    );
    const inquiry = await halfSentInquiry(server);
    writeFileSync(cue, "");
    const logged = await server.logged((line) => line.msg === "uncaught error; shutting down");
    expect(logged.err).toMatchObject({ message: "deliberate uncaught error from the test" });
    inquiry.finish();
    expect(await inquiry.answered).toBe(200);
    expect(await server.exited).toBe(1);
  });
});
