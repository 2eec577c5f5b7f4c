/**
 * Hundreds of generated hostile requests (test/support/
 * hostile.ts) against every endpoint and static path, on both engines. Each
 * is answered with a 4xx (a JSON {message} on API paths, the 404 page or a
 * form's page elsewhere) or with what it asked for, never a 5xx; a valid but
 * unusual value is stored byte for byte; a refused request leaves the
 * inquiries, subscriptions and outbox as they were, and the console's tables
 * too. Every console write (the server's own list of routes) has its fields
 * broken one at a time, each answered with a 400 naming the field. The cases
 * inject cannot send (bytes that are not UTF-8 in the request line, a body
 * cut short, a URL beyond Node's header limit) go over a real socket.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROOT } from "../../src/shared/api-paths.ts";
import { openSession, type Session, startApp, type TestApp } from "../support/app.ts";
import { createAccount, signIn } from "../support/console.ts";
import { ENGINES } from "../support/engines.ts";
import { type FormPage, openFormPage } from "../support/form-page.ts";
import {
  consoleRouteCases,
  FORM_TOKEN_SLOT,
  type HostileCase,
  hostileCases,
  OUTSIDE_FILE,
  unlistedConsoleWrites,
} from "../support/hostile.ts";
import { builtRenderer as renderer } from "../support/page-renderer.ts";

const MINIMUM_CASES = 300;
/** What the file outside every static root holds: no answer may carry it. */
const SECRET = "outside the served folders: never sent";

/** The site's, the media's and the console's folders, each with one file, and a secret beside them. */
function staticRoots(): Record<string, string> {
  const parent = mkdtempSync(join(tmpdir(), "hostile-static-"));
  const site = join(parent, "site");
  const media = join(parent, "media");
  const admin = join(parent, "admin");
  const served = [
    join(site, "assets"),
    join(media, "pictures"),
    join(media, "items"),
    join(admin, "assets"),
  ];
  for (const dir of served) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "app.js"), "served();");
  }
  writeFileSync(join(admin, "index.html"), "<!DOCTYPE html><title>Console</title>");
  // Beside the served folders, never in one (the site's root is served; media's and the console's are not).
  for (const dir of [parent, media, admin]) writeFileSync(join(dir, OUTSIDE_FILE), SECRET);
  return { STATIC_DIR: site, MEDIA_DIR: media, ADMIN_DIR: admin };
}

/** What the site's and the console's writes fill; a stored case adds a row to the first three. */
const WRITTEN_TABLES = [
  "inquiries",
  "subscriptions",
  "outbox",
  "issues",
  "inquiry_notes",
  "content_versions",
  "site_facts",
  "users",
  "audit_log",
] as const;
type WrittenTable = (typeof WRITTEN_TABLES)[number];
/** Signing in, even wrongly, and exporting are audited: the log is held still only for field refusals. */
const AUDITED_ANYWAY: WrittenTable = "audit_log";

/** What a case is answered, whether by inject or over a socket. */
interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders | Record<string, unknown>;
  body: string;
}

/**
 * A raw HTTP exchange over a socket: the answer, or null when the server
 * closed the connection without one (a body cut short has no one to answer).
 * With `halfClose` the request's end is announced before its body is whole.
 */
async function rawExchange(
  port: number,
  request: Buffer,
  halfClose = false,
): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => socket.end());
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET") socket.destroy();
      else reject(error);
    });
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      const type = /^content-type:\s*(.*)$/im.exec(head)?.[1] ?? "";
      resolve(
        status
          ? {
              statusCode: Number(status),
              headers: { "content-type": type },
              body: rest.join("\r\n\r\n"),
            }
          : null,
      );
    });
    socket.write(request, () => {
      if (halfClose) socket.end();
    });
    socket.setTimeout(5000, () =>
      socket.destroy(new Error("the server neither answered nor closed")),
    );
  });
}

describe.each(ENGINES)("hostile input on $engine", (engine) => {
  let t: TestApp;
  let visitor: Session;
  let ownerCookie: string;
  let ownerToken: string;
  let form: FormPage;
  const notFoundPages = new Set<string>();
  let requestCount = 0;
  let port = 0;
  const agent = new Agent({ keepAlive: true });

  beforeAll(async () => {
    t = await startApp(
      engine,
      {
        ...staticRoots(),
        // Every case comes from an address of its own; these only keep a slow machine's run in bounds.
        RATE_LIMIT_PER_MINUTE: "100000",
        RATE_LIMIT_CONSOLE_PER_MINUTE: "100000",
        FORM_MIN_SECONDS: "0",
      },
      { renderer },
    );
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
    visitor = await openSession(t.app);
    await createAccount(t.database, "owner", "hostile-owner@firm.example");
    const owner = await signIn(t.app, "hostile-owner@firm.example");
    ownerCookie = owner.cookie;
    ownerToken = owner.token;
    form = await openFormPage(t.app);
    // Two pages say "not found": any unknown path's, and an unknown case study's (it hydrates as that route).
    for (const url of ["/no-such-page", "/weserve/case-studies/no-such-study"]) {
      const unknown = await t.app.inject({ url });
      expect(unknown.statusCode).toBe(404);
      notFoundPages.add(unknown.body);
    }
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  /**
   * The rows of every table a write fills: a refused request must leave them as they were.
   * One query for them all (every case counts twice, and a slow machine runs thousands).
   */
  async function counts(): Promise<Record<WrittenTable, number>> {
    const { rows } = await sql<Record<WrittenTable, number | string>>`select ${sql.join(
      WRITTEN_TABLES.map(
        (table) => sql`(select count(*) from ${sql.table(table)}) as ${sql.ref(table)}`,
      ),
    )}`.execute(t.database.db);
    const [row] = rows;
    if (!row) throw new Error("the counts query returned no row");
    return Object.fromEntries(WRITTEN_TABLES.map((table) => [table, Number(row[table])])) as Record<
      WrittenTable,
      number
    >;
  }

  /** The headers each sender brings: its cookies and tokens, as its browser would. */
  function senderHeaders(c: HostileCase): Record<string, string> {
    switch (c.sender) {
      case "stranger":
        return {};
      case "visitor":
        return { cookie: visitor.cookie, "x-xsrf-token": visitor.token };
      case "owner":
        return { cookie: ownerCookie, "x-xsrf-token": ownerToken };
      case "form":
        return {
          cookie: form.cookie,
          origin: t.config.PUBLIC_ORIGIN,
          "sec-fetch-site": "same-origin",
        };
    }
  }

  function payloadOf(c: HostileCase): string | Buffer | undefined {
    if (c.sender !== "form" || c.payload === undefined) return c.payload;
    const slot = encodeURIComponent(FORM_TOKEN_SLOT);
    return typeof c.payload === "string"
      ? c.payload.replace(slot, encodeURIComponent(form.token))
      : Buffer.from(
          c.payload.toString("latin1").replace(slot, encodeURIComponent(form.token)),
          "latin1",
        );
  }

  /** Sends the path exactly as written: node:http leaves `..`, `%2e` and backslashes alone. */
  function sendOverSocket(c: HostileCase): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest(
        {
          host: "127.0.0.1",
          port,
          agent,
          method: c.method,
          path: c.url,
          headers: { ...senderHeaders(c), ...c.headers },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              statusCode: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      sent.on("error", reject);
      sent.end(payloadOf(c));
    });
  }

  function send(c: HostileCase): Promise<Answer> {
    requestCount += 1;
    if (c.overSocket) return sendOverSocket(c);
    const payload = payloadOf(c);
    return t.app.inject({
      method: c.method,
      url: c.url,
      // An address per request: the rate limits and sign-in locks never answer in a case's place.
      remoteAddress: `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`,
      headers: { ...senderHeaders(c), ...c.headers },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  const isJsonMessage = (response: Answer) => {
    if (!String(response.headers["content-type"]).startsWith("application/json")) return false;
    try {
      return typeof JSON.parse(response.body).message === "string";
    } catch {
      return false;
    }
  };

  /** Why the answer to a refused case is wrong, or null. */
  function refusalProblem(c: HostileCase, response: Answer): string | null {
    const status = response.statusCode;
    if (status < 400 || status > 499) return `status ${status}`;
    if (isJsonMessage(response)) return null;
    if (c.url.startsWith(API_ROOT)) return "an API refusal without a JSON {message}";
    // A form posted without script gets its page back, with the reason.
    if (c.sender === "form" && String(response.headers["content-type"]).startsWith("text/html")) {
      return null;
    }
    if (status === 404 && notFoundPages.has(response.body)) return null;
    return `a ${status} that is neither a JSON {message} nor the 404 page`;
  }

  /** Why the answer to a field's refusal is not a 400 that names the field or says its reason, or null. */
  function invalidProblem(field: string, response: Answer): string | null {
    const body = response.body.slice(0, 200);
    if (response.statusCode !== 400) return `status ${response.statusCode}: ${body}`;
    const { message, fields } = JSON.parse(response.body) as {
      message?: string;
      fields?: Record<string, string>;
    };
    const reason = fields?.[field];
    if (typeof reason !== "string") return `no reason for ${field}: ${body}`;
    // A reason written as a sentence for the person is said as it is, with no
    // field name in it; `fields` ties it to its field.
    if (!message?.includes(field) && !message?.includes(reason)) {
      return `a message naming neither ${field} nor its reason: ${body}`;
    }
    return null;
  }

  /** Why the answer to a case is wrong (a 5xx, a leak, a wrong status, a changed table), or null. */
  async function problemOf(c: HostileCase): Promise<string | null> {
    const before = await counts();
    const response = await send(c);
    const after = await counts();
    if (response.statusCode >= 500)
      return `status ${response.statusCode}: ${response.body.slice(0, 200)}`;
    if (response.body.includes(SECRET)) return "sent the file outside the static root";
    const expected = { ...before };
    const { expect: outcome } = c;
    if (outcome.kind === "refused") {
      const problem = refusalProblem(c, response);
      if (problem) return problem;
    } else if (outcome.kind === "served") {
      if (response.statusCode !== outcome.status) return `status ${response.statusCode}`;
    } else if (outcome.kind === "invalid") {
      const problem = invalidProblem(outcome.field, response);
      if (problem) return problem;
    } else if (outcome.kind === "answered") {
      const problem = response.statusCode >= 400 ? refusalProblem(c, response) : null;
      if (problem) return problem;
    } else {
      if (response.statusCode >= 300)
        return `status ${response.statusCode}: ${response.body.slice(0, 200)}`;
      expected[outcome.table] += 1;
      expected.outbox += 1;
      const row = await t.database.db
        .selectFrom(outcome.table)
        .select(outcome.column as "id")
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      const stored: unknown = Object.values(row)[0];
      if (stored !== outcome.value) return `stored ${JSON.stringify(stored)}`;
    }
    if (outcome.kind !== "invalid") expected[AUDITED_ANYWAY] = after[AUDITED_ANYWAY];
    if (JSON.stringify(after) !== JSON.stringify(expected)) {
      return `rows ${JSON.stringify(before)} became ${JSON.stringify(after)}`;
    }
    return null;
  }

  /** Runs every case; the failures are listed together, each with its case's name. */
  async function run(cases: HostileCase[]): Promise<string[]> {
    const failures: string[] = [];
    for (const c of cases) {
      const problem = await problemOf(c);
      if (problem) failures.push(`${c.name} → ${problem}`);
    }
    return failures;
  }

  /** The cases by the endpoint they aim at (the first word of their names). */
  const groups: Record<string, HostileCase[]> = {};
  for (const c of hostileCases()) {
    const group = c.name.split(/[: ]/)[0] ?? "";
    groups[group] = [...(groups[group] ?? []), c];
  }

  it.each(Object.keys(groups))("%s cases are refused or served, never failed", async (group) => {
    expect(await run(groups[group] ?? [])).toEqual([]);
  });

  // Some 1,800 requests, each with its table counts: beyond the default 30 s on a busy machine.
  it("every console route refuses bad ids and bodies", async () => {
    const cases = consoleRouteCases(t.app.consoleRoutes);
    expect(cases.length).toBeGreaterThan(100);
    expect(await run(cases)).toEqual([]);
  }, 120_000);

  it("every console write has its body's cases: none is left out, none is listed in vain", () => {
    const writes = t.app.consoleRoutes.filter((route) => route.method !== "GET");
    expect(writes.length).toBeGreaterThan(40);
    expect(unlistedConsoleWrites(t.app.consoleRoutes)).toEqual({ unlisted: [], stale: [] });
  });

  const raw = (lines: string[], body: Buffer | string = "") =>
    Buffer.concat([
      Buffer.from(lines.join("\r\n"), "latin1"),
      Buffer.from("\r\n\r\n"),
      Buffer.from(body),
    ]);
  const host = "Host: 127.0.0.1";
  const withSession = () => [`Cookie: ${visitor.cookie}`, `X-XSRF-Token: ${visitor.token}`];

  const post = (url: string, headers: string[], body: string) =>
    raw(
      [
        `POST ${url} HTTP/1.1`,
        host,
        ...withSession(),
        "Content-Type: application/json",
        ...headers,
      ],
      body,
    );

  /** A case inject cannot send: its name, its bytes, the path it aims at, and the statuses it may get (null: closed unanswered). */
  const SOCKET_CASES: [string, () => Buffer, string, (number | null)[], boolean?][] = [
    [
      "bytes that are not UTF-8 in a page path",
      () => raw(["GET /we\xff\xfeare HTTP/1.1", host, "Connection: close"]),
      "/weare",
      [400, 404],
    ],
    [
      "bytes that are not UTF-8 in a page's query",
      () => raw(["GET /weare?x=\xc0\xaf HTTP/1.1", host, "Connection: close"]),
      "/weare",
      [200, 400],
    ],
    [
      "bytes that are not UTF-8 in the subscribe address",
      () =>
        raw([
          "POST /api/v1/subscribe?emailId=jane\xff@example.com HTTP/1.1",
          host,
          ...withSession(),
          "Content-Length: 0",
          "Connection: close",
        ]),
      "/api/v1/subscribe",
      [400],
    ],
    [
      "a URL beyond the header limit",
      () => raw([`GET /${"a".repeat(20_000)} HTTP/1.1`, host, "Connection: close"]),
      "/",
      [431],
    ],
    [
      "a CR inside the request line",
      () => raw(["GET /we\rare HTTP/1.1", host, "Connection: close"]),
      "/",
      [400],
    ],
    [
      "a NUL in a header",
      () => raw(["GET /weare HTTP/1.1", host, "X-Odd: a\x00b", "Connection: close"]),
      "/",
      [400],
    ],
    [
      "a body declared longer than sent",
      () => post("/api/v1/send-comment", ["Content-Length: 100"], '{"firstName":'),
      "/api/v1/send-comment",
      [null, 400],
      true,
    ],
    [
      "a chunked body cut short",
      () => post("/api/v1/send-comment", ["Transfer-Encoding: chunked"], '20\r\n{"firstName":'),
      "/api/v1/send-comment",
      [null, 400],
      true,
    ],
    [
      "a bad chunk size",
      () => post("/api/v1/send-comment", ["Transfer-Encoding: chunked"], "zz\r\n{}\r\n0\r\n\r\n"),
      "/api/v1/send-comment",
      [400],
    ],
    [
      "both a length and chunks (request smuggling)",
      () =>
        post(
          "/api/v1/send-comment",
          ["Content-Length: 4", "Transfer-Encoding: chunked"],
          "0\r\n\r\nGET /x HTTP/1.1\r\n\r\n",
        ),
      "/api/v1/send-comment",
      [400],
    ],
  ];

  describe("over a real socket", () => {
    it.each(SOCKET_CASES)("%s", async (name, request, url, statuses, halfClose) => {
      const before = await counts();
      const answer = await rawExchange(port, request(), halfClose);
      expect(statuses).toContain(answer?.statusCode ?? null);
      if (answer && answer.statusCode >= 400) {
        const c: HostileCase = {
          name,
          sender: "stranger",
          method: "GET",
          url,
          expect: { kind: "refused" },
        };
        expect(refusalProblem(c, answer)).toBeNull();
      }
      expect(await counts()).toEqual(before);
    });
  });

  // Counted from the lists the tests above run in full, not as they run: this test may come first.
  it(`runs at least ${MINIMUM_CASES} cases`, () => {
    const cases =
      Object.values(groups).flat().length +
      consoleRouteCases(t.app.consoleRoutes).length +
      SOCKET_CASES.length;
    console.log(`hostile input on ${engine.engine}: ${cases} cases`);
    expect(cases).toBeGreaterThanOrEqual(MINIMUM_CASES);
  });
});
