/**
 * What the backup tests share: a site's data to back up (content, inquiries,
 * media and mail files), a writer that keeps inserting subscribers while a
 * backup runs (a thread of its own for SQLite, whose copy holds the event
 * loop; PostgreSQL's dump runs in a process of its own), and a dump of every
 * table and file to compare a restored site with.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import { sqliteDriverPackage } from "../../src/server/platform/db/sqlite-driver.ts";

export const writtenAddress = (n: number) => `written-${String(n).padStart(6, "0")}@example.com`;

/** A site's folders with a few files, nested as the media folder's sizes are. */
export function siteFolders() {
  const root = mkdtempSync(join(tmpdir(), "backup-site-"));
  const media = join(root, "media");
  const mail = join(root, "mail");
  mkdirSync(join(media, "originals"), { recursive: true });
  mkdirSync(mail, { recursive: true });
  writeFileSync(
    join(media, "originals", "photo.jpg"),
    Buffer.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]),
  );
  writeFileSync(join(media, "photo-640.avif"), "avif bytes");
  writeFileSync(join(mail, "0001.eml"), "Subject: hello\r\n\r\nA letter.\r\n");
  return { root, media, mail };
}

/** Rows every table of a site might hold, written as the site writes them. */
export async function fillSite(database: DatabaseHandle, inquiries = 25): Promise<void> {
  const at = new Date("2026-11-01T10:00:00.000Z").toISOString();
  for (let n = 0; n < inquiries; n += 1) {
    await database.db
      .insertInto("inquiries")
      .values({
        first_name: `Ada ${n}`,
        last_name: "Lovelace",
        company: "Engines Ltd",
        job_title: "Analyst",
        email: `ada${n}@example.com`,
        phone_number: "+44 20 7946 0000",
        inquiry_type: "Consulting",
        comments: `Question number ${n}, with “quotes” and é.`,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
}

/** Every file under a folder with its bytes, by relative path. */
export function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    out[full.slice(dir.length + 1)] = readFileSync(full).toString("base64");
  }
  return out;
}

/** Every row of every table, each table's rows in one order whatever the engine returned. */
export async function dumpTables(database: DatabaseHandle): Promise<Record<string, string[]>> {
  const names =
    database.engine === "postgres"
      ? await sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(
          database.db,
        )
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
          database.db,
        );
  const dump: Record<string, string[]> = {};
  for (const { name } of names.rows) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      database.db,
    );
    dump[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return dump;
}

export interface Writer {
  /** Stops writing; resolves with how many rows were committed in all. */
  stop(): Promise<number>;
  /** How many rows are committed so far. */
  committed(): number;
}

/** Inserts subscribers one after another, each committed alone, until stopped. */
export function startWriter(database: DatabaseHandle, sqliteFile: string): Writer {
  if (database.engine === "postgres") {
    let stopping = false;
    let count = 0;
    const loop = (async () => {
      while (!stopping) {
        const at = new Date().toISOString();
        await database.db
          .insertInto("subscriptions")
          .values({
            email: writtenAddress(count),
            subscribed_at: at,
            subscribed_via: "test",
            created_at: at,
            updated_at: at,
          })
          .execute();
        count += 1;
      }
    })();
    return {
      committed: () => count,
      stop: async () => {
        stopping = true;
        await loop;
        return count;
      },
    };
  }
  // A thread with its own connection: the backup's copy runs on this
  // thread's event loop, and the writes must go on during it.
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const driver = createRequire(import.meta.url).resolve(sqliteDriverPackage(process.versions.node));
  const worker = new Worker(
    `
    const { workerData } = require("node:worker_threads");
    const SQLite = require(workerData.driver);
    const db = new SQLite(workerData.file);
    db.pragma("busy_timeout = 5000");
    const insert = db.prepare("insert into subscriptions (email, subscribed_at, subscribed_via, created_at, updated_at) values (?, ?, 'test', ?, ?)");
    const [stop, count] = [0, 1];
    while (Atomics.load(workerData.shared, stop) === 0) {
      const n = Atomics.load(workerData.shared, count);
      const at = new Date().toISOString();
      insert.run("written-" + String(n).padStart(6, "0") + "@example.com", at, at, at);
      Atomics.store(workerData.shared, count, n + 1);
    }
    db.close();
    `,
    { eval: true, workerData: { driver, file: sqliteFile, shared } },
  );
  const done = new Promise<void>((resolve, reject) => {
    worker.once("exit", () => resolve());
    worker.once("error", reject);
  });
  return {
    committed: () => Atomics.load(shared, 1),
    stop: async () => {
      Atomics.store(shared, 0, 1);
      await done;
      return Atomics.load(shared, 1);
    },
  };
}
