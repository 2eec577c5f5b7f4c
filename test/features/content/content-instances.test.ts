/**
 * Several instances on one PostgreSQL database: a content
 * change made through the content module in one process shows on every
 * other server process, in its pages and its API, as soon as its notice
 * arrives. How soon that is, against a second's target, is measured by
 * `npm run bench:propagation`, not here: a busy machine says nothing of it.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChangeFeed,
  listenForChanges,
  SiteContent,
} from "../../../src/server/features/content/index.ts";
import { type DatabaseHandle, openDatabase } from "../../../src/server/platform/db/connection.ts";
import { ENGINES, POSTGRES_SKIP_REASON, type TestDatabase } from "../../support/engines.ts";
import { type ServerProcess, startServer } from "../../support/server-process.ts";

const postgres = ENGINES.find((engine) => engine.engine === "postgres");
if (!postgres) console.warn(POSTGRES_SKIP_REASON);
const [first] = JSON.parse(readFileSync("content/team.json", "utf8"));

describe.skipIf(!postgres)("content changes across server processes on PostgreSQL", () => {
  let testDb: TestDatabase;
  let servers: ServerProcess[] = [];
  let database: DatabaseHandle;
  let content: SiteContent;
  let feed: ChangeFeed;

  beforeAll(async () => {
    testDb = await (postgres as NonNullable<typeof postgres>).create();
    // One after the other: each migrates and seeds the schema on start.
    servers = [await startServer(testDb.env), await startServer(testDb.env)];
    database = openDatabase({ databaseUrl: testDb.env.DATABASE_URL, sqliteFile: "" });
    feed = await listenForChanges(String(testDb.env.DATABASE_URL), () => {}, console);
    content = new SiteContent(database, feed);
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill("SIGTERM");
    await Promise.all(servers.map((server) => server.exited));
    await feed?.close();
    await database?.db.destroy();
    await testDb?.drop();
  });

  it("every other instance shows the change, in its pages and its API", async () => {
    // Both instances have the page and the list in memory.
    for (const server of servers) {
      expect(await (await fetch(`${server.origin}/weare`)).text()).toContain(first.title);
      expect((await (await fetch(`${server.origin}/api/v1/teams/`)).json())[0].title).toBe(
        first.title,
      );
    }

    await content.edit((trx) =>
      trx
        .updateTable("team_members")
        .set({ title: "Chief Listening Officer" })
        .where("fullname", "=", first.fullname)
        .execute(),
    );

    await Promise.all(
      servers.map(async (server) => {
        // The page is cached until a notice says otherwise: only the notice can change it.
        // The limit is for a starved machine, not a target.
        await expect
          .poll(async () => (await fetch(`${server.origin}/weare`)).text(), {
            timeout: 15_000,
            interval: 25,
          })
          .toContain("Chief Listening Officer");
        const team = await (await fetch(`${server.origin}/api/v1/teams/`)).json();
        expect(team[0].title).toBe("Chief Listening Officer");
      }),
    );
  });
});
