/** Builds the real app against a test database and a stub of the built site. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type App, buildApp } from "../../src/server/app.ts";
import { seedOnce } from "../../src/server/features/content/index.ts";
import type { PageRenderer } from "../../src/server/features/pages/index.ts";
import { type DatabaseHandle, openDatabase } from "../../src/server/platform/db/connection.ts";
import type { Database } from "../../src/server/platform/db/schema.ts";
import { type Config, loadConfig } from "../../src/server/settings.ts";
import { NOT_FOUND_PATH } from "../../src/shared/routes.ts";
import type { EngineCase, TestDatabase } from "./engines.ts";

export const HOME_MARKER = "<h1>Home page stub</h1>";

/** An empty folder for the built site's files (tests add the ones they need). */
export function stubSite(): string {
  return mkdtempSync(join(tmpdir(), "site-static-"));
}

/**
 * Stands in for the server build: each page is a line naming its path (Home
 * and the not-found page carry HOME_MARKER), with one inline script. It counts
 * its renders, so tests can see the cache at work.
 */
export function stubRenderer(): PageRenderer & { renders: string[] } {
  const renders: string[] = [];
  const render = async (path: string) => {
    renders.push(path);
    const heading = path === "/" || path === NOT_FOUND_PATH ? HOME_MARKER : `<h1>Page ${path}</h1>`;
    return {
      status: 200,
      html: `<!DOCTYPE html><html><body>${heading}<script>window.page=${JSON.stringify(path)}</script></body></html>`,
    };
  };
  return Object.assign(render, { renders });
}

export interface TestApp {
  app: App;
  /** The database it runs on, for a second instance (StartOptions.shared). */
  testDb: TestDatabase;
  renderer: ReturnType<typeof stubRenderer>;
  config: Config;
  database: DatabaseHandle;
  logs: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  /** false serves the API only, as without a server build. */
  withPages?: boolean;
  /** Renders the pages; by default stubRenderer(). */
  renderer?: PageRenderer;
  /** The server's clock for the forms' minimum time-to-submit and the subscribe mail's cooldown; by default the real one. */
  now?: () => number;
  /**
   * A database another app of the test already runs on (a second instance);
   * by default a new one. Left for the app that made it to drop.
   */
  shared?: TestDatabase;
}

export async function startApp(
  engine: EngineCase,
  env: Record<string, string> = {},
  { withPages = true, renderer: given, now, shared }: StartOptions = {},
): Promise<TestApp> {
  const testDb: TestDatabase = shared ?? (await engine.create());
  const config = loadConfig({
    STATIC_DIR: stubSite(),
    MAILBOX_DIR: mkdtempSync(join(tmpdir(), "mailbox-")),
    // A test that reaches "Back up now" (the authorisation walk, say) writes its archive here.
    BACKUP_DIR: mkdtempSync(join(tmpdir(), "backups-")),
    RATE_LIMIT_PER_MINUTE: "1000",
    // Tests post right after taking a token; the minimum time-to-submit is
    // tested on its own (test/platform/security/bot-defence.test.ts).
    FORM_MIN_SECONDS: "0",
    // Tests subscribe one address again and again; the cooldown on its mail
    // is tested on its own (src/server/features/subscriptions/subscribe-cooldown.test.ts).
    SUBSCRIBE_MAIL_COOLDOWN_MINUTES: "0",
    // The event loop here is the test runner's: its pauses are not overload.
    MAX_EVENT_LOOP_DELAY_MS: "0",
    ...testDb.env,
    ...env,
  });
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  // engine.create() gave a database at the latest schema; the seed is the start's.
  await seedOnce(database.db, config.CONTENT_DIR);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const renderer = stubRenderer();
  const app = await buildApp({
    config,
    database,
    renderer: withPages ? (given ?? renderer) : null,
    logger: { level: "info", stream },
    ...(now ? { now } : {}),
  });
  await app.ready();
  return {
    app,
    testDb,
    renderer,
    config,
    database,
    logs,
    async close() {
      await app.close();
      await database.db.destroy();
      if (!shared) await testDb.drop();
    },
  };
}

export interface Session {
  cookie: string;
  token: string;
}

/** Gets an XSRF token the way a page does: from the cookie of a first response. */
export async function openSession(app: FastifyInstance): Promise<Session> {
  const response = await app.inject({ method: "GET", url: "/api/v1/xsrf" });
  const token = response.cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
  if (!token) throw new Error("no XSRF-TOKEN cookie was issued");
  return { cookie: `XSRF-TOKEN=${token}`, token };
}

export function post(
  app: FastifyInstance,
  session: Session,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url,
    headers: { cookie: session.cookie, "x-xsrf-token": session.token },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** How many rows a table of a written thing holds (to show what a request stored, or did not). */
export async function countRows(database: DatabaseHandle, table: keyof Database): Promise<number> {
  const { n } = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The id of the newest audit entry (0 for none), so a test can look only at the entries its own requests write. */
export async function lastAuditId(database: DatabaseHandle): Promise<number> {
  const last = await database.db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(last?.id ?? 0);
}
