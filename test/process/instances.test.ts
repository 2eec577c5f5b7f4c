/**
 * Several instances: two server processes on one
 * PostgreSQL schema and one Redis, behind a round-robin proxy that appends
 * the address it saw to X-Forwarded-For (the servers trust it:
 * TRUST_PROXY=127.0.0.1), and a real SMTP server. Writes through either are
 * seen through both, the write limit is shared, and each outbox message is
 * sent once. The test's clients come as if through an outer hop that names
 * them (their own X-Forwarded-For), so each test counts for its own address.
 */
import { randomBytes } from "node:crypto";
import { createServer, request as forward, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../src/server/platform/db/connection.ts";
import { AUTH_PATHS } from "../../src/shared/admin/auth.ts";
import { INQUIRY_PATHS, inquiryPath } from "../../src/shared/admin/inquiries.ts";
import { createAccount, TEST_PASSWORD } from "../support/console.ts";
import { ENGINES, POSTGRES_SKIP_REASON, type TestDatabase } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv } from "../support/redis.ts";
import { type ServerProcess, startServer } from "../support/server-process.ts";
import { header, startSmtp, type TestSmtp } from "../support/smtp.ts";

const postgres = ENGINES.find((engine) => engine.engine === "postgres");
if (!postgres) console.warn(POSTGRES_SKIP_REASON);
if (!REDIS_URL) console.warn(REDIS_SKIP_REASON);

const LIMIT = 5;
const INBOX = "inbox@firm.example";
/** Which instance answered, as the proxy marks each answer. */
const SERVED_BY = "x-test-served-by";

interface Proxy {
  url: string;
  close(): Promise<void>;
}

/** Sends each request to the next instance in turn, as a load balancer does. */
async function startProxy(origins: string[]): Promise<Proxy> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const instance = next;
    next = (next + 1) % origins.length;
    const forwardedFor = [incoming.headers["x-forwarded-for"], incoming.socket.remoteAddress]
      .filter(Boolean)
      .join(", ");
    const upstream = forward(
      new URL(incoming.url ?? "/", origins[instance]),
      {
        method: incoming.method,
        headers: { ...incoming.headers, "x-forwarded-for": forwardedFor },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, [SERVED_BY]: instance });
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser at `address`, keeping its cookies, talking to the site through `proxy`. */
async function visitor(proxy: Proxy, address: string) {
  const cookies = new Map<string, string>();
  async function call(method: string, path: string, body?: unknown) {
    const headers: IncomingHttpHeaders & Record<string, string> = {
      "x-forwarded-for": address,
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      "x-xsrf-token": cookies.get("XSRF-TOKEN") ?? "",
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${proxy.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [name = "", value = ""] = (line.split(";")[0] ?? "").split("=");
      cookies.set(name, value);
    }
    return { status: response.status, servedBy: response.headers.get(SERVED_BY), response };
  }
  await call("GET", "/api/v1/xsrf");
  return { call };
}

const subscribePath = (email: string) => `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`;
const unique = (what: string) => `${what}-${randomBytes(4).toString("hex")}@example.com`;

/** Ten posts from one address, alternating instances: how many each instance took. */
async function tenPosts(proxy: Proxy, address: string) {
  const client = await visitor(proxy, address);
  const answers: { status: number; servedBy: string | null }[] = [];
  for (let i = 0; i < LIMIT * 2; i += 1) {
    answers.push(await client.call("POST", subscribePath(unique("limit"))));
  }
  expect(answers.filter((answer) => answer.servedBy === "0")).toHaveLength(LIMIT);
  expect(answers.filter((answer) => answer.servedBy === "1")).toHaveLength(LIMIT);
  return answers.map((answer) => answer.status);
}

const accepted = (statuses: number[]) => statuses.filter((status) => status === 201).length;

async function stopAll(servers: ServerProcess[]) {
  for (const server of servers) server.child.kill("SIGTERM");
  await Promise.all(servers.map((server) => server.exited));
}

describe.skipIf(!postgres || !REDIS_URL)("two instances on one PostgreSQL and one Redis", () => {
  let testDb: TestDatabase;
  let smtp: TestSmtp;
  let database: DatabaseHandle;
  let servers: ServerProcess[] = [];
  let proxy: Proxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    testDb = await (postgres as NonNullable<typeof postgres>).create();
    smtp = await startSmtp();
    env = {
      ...testDb.env,
      TRUST_PROXY: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      SMTP_URL: smtp.url,
      INQUIRY_TO: INBOX,
      OUTBOX_POLL_MS: "50",
      // The posts here come at once: the forms' minimum time is tested elsewhere.
      FORM_MIN_SECONDS: "0",
    };
    const shared = { ...env, ...redisEnv(REDIS_URL as string) };
    // One after the other: each migrates and seeds the schema on start.
    servers = [await startServer(shared), await startServer(shared)];
    proxy = await startProxy(servers.map((server) => server.origin));
    database = openDatabase({ databaseUrl: testDb.env.DATABASE_URL, sqliteFile: "" });
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await stopAll(servers);
    await database?.db.destroy();
    await smtp?.close();
    await testDb?.drop();
  });

  it("a subscription made through one instance is known to the other", async () => {
    const client = await visitor(proxy, "198.51.100.1");
    const email = unique("both");
    const first = await client.call("POST", subscribePath(email));
    const second = await client.call("POST", subscribePath(email));
    expect([first.status, second.status]).toEqual([201, 409]);
    expect(first.servedBy).not.toBe(second.servedBy);
  });

  it("an inquiry sent through one instance is read in the console through both", async () => {
    await createAccount(database, "viewer", "instances-viewer@firm.example");
    const firm = await visitor(proxy, "198.51.100.2");
    const signedIn = await firm.call("POST", AUTH_PATHS.session, {
      email: "instances-viewer@firm.example",
      password: TEST_PASSWORD,
    });
    expect(signedIn.status).toBe(200);

    const site = await visitor(proxy, "198.51.100.3");
    const comments = `Read through both instances ${randomBytes(4).toString("hex")}`;
    const sent = await site.call("POST", "/api/v1/send-comment", { ...VALID_INQUIRY, comments });
    expect(sent.status).toBe(200);
    const { id } = (await sent.response.json()) as { id: number };

    const reads = [
      await firm.call("GET", inquiryPath(INQUIRY_PATHS.one, id)),
      await firm.call("GET", inquiryPath(INQUIRY_PATHS.one, id)),
    ];
    expect(new Set(reads.map((read) => read.servedBy))).toEqual(new Set(["0", "1"]));
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(JSON.stringify(await read.response.json())).toContain(comments);
    }
  });

  it("shares one write limit: ten posts from one address through both instances, five accepted", async () => {
    const statuses = await tenPosts(proxy, "198.51.100.4");
    expect(accepted(statuses)).toBe(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual(Array(LIMIT).fill(429));
  });

  it("sends each inquiry's notification once, whichever instance took it", async () => {
    const COUNT = 12;
    const marker = `once-${randomBytes(4).toString("hex")}`;
    // A few addresses, so the limit lets every inquiry through.
    const clients = [
      await visitor(proxy, "198.51.100.5"),
      await visitor(proxy, "198.51.100.6"),
      await visitor(proxy, "198.51.100.7"),
    ];
    for (let i = 0; i < COUNT; i += 1) {
      const comments = `${marker} inquiry ${i}`;
      const sent = await clients[i % clients.length]?.call("POST", "/api/v1/send-comment", {
        ...VALID_INQUIRY,
        comments,
      });
      expect(sent?.status).toBe(200);
    }
    // Every message written is marked sent: nothing is left that could go twice.
    await expect
      .poll(
        async () =>
          (await database.db.selectFrom("outbox").select("status").execute()).every(
            (row) => row.status === "sent",
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    const notifications = smtp.received.filter(
      (mail) => mail.recipients.includes(INBOX) && mail.parsed.text?.includes(marker),
    );
    expect(notifications).toHaveLength(COUNT);
    const bodies = notifications.map((mail) => /inquiry \d+/.exec(mail.parsed.text ?? "")?.[0]);
    expect(new Set(bodies).size).toBe(COUNT);
    const messageIds = smtp.received.map((mail) => header(mail, "message-id"));
    expect(new Set(messageIds).size).toBe(smtp.received.length);
  });

  describe("without Redis (the control)", () => {
    let alone: ServerProcess[] = [];
    let aloneProxy: Proxy;
    beforeAll(async () => {
      alone = [await startServer(env), await startServer(env)];
      aloneProxy = await startProxy(alone.map((server) => server.origin));
    }, 60_000);
    afterAll(async () => {
      await aloneProxy?.close();
      await stopAll(alone);
    });

    it("each instance counts alone: ten posts from one address, all accepted", async () => {
      expect(accepted(await tenPosts(aloneProxy, "198.51.100.8"))).toBe(LIMIT * 2);
    });
  });
});
