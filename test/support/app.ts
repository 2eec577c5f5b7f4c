/** Builds the real app against a test database and a stub of the built site. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type App, buildApp } from "../../src/server/app.ts";
import { type Config, loadConfig } from "../../src/server/config.ts";
import { type DatabaseHandle, openDatabase } from "../../src/server/db/connection.ts";
import { migrateToLatest } from "../../src/server/db/migrations.ts";
import { seedOnce } from "../../src/server/db/seed.ts";
import { NOT_FOUND_PATH } from "../../src/shared/routes.ts";
import type { EngineCase, TestDatabase } from "./engines.ts";

export const HOME_MARKER = "<h1>Home page stub</h1>";

/** A built site of two pages: Home, and the not-found page (also Home). */
export function stubSite(): string {
  const dir = mkdtempSync(join(tmpdir(), "site-static-"));
  const page = `<!DOCTYPE html><html><body>${HOME_MARKER}<script>window.x=1</script></body></html>`;
  writeFileSync(join(dir, "index.html"), page);
  mkdirSync(join(dir, NOT_FOUND_PATH.slice(1)));
  writeFileSync(join(dir, NOT_FOUND_PATH.slice(1), "index.html"), page);
  return dir;
}

export interface TestApp {
  app: App;
  config: Config;
  database: DatabaseHandle;
  logs: string[];
  close(): Promise<void>;
}

export async function startApp(
  engine: EngineCase,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const testDb: TestDatabase = await engine.create();
  const config = loadConfig({
    STATIC_DIR: stubSite(),
    MAILBOX_DIR: mkdtempSync(join(tmpdir(), "mailbox-")),
    RATE_LIMIT_PER_MINUTE: "1000",
    ...testDb.env,
    ...env,
  });
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  await migrateToLatest(database.db, database.engine);
  await seedOnce(database.db, config.CONTENT_DIR);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config, database, logger: { level: "info", stream } });
  await app.ready();
  return {
    app,
    config,
    database,
    logs,
    async close() {
      await app.close();
      await database.db.destroy();
      await testDb.drop();
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
