/**
 * Tells every other instance that content changed, and hears them, through
 * PostgreSQL's LISTEN/NOTIFY (ADR 010). The notice is sent inside the
 * writer's transaction, so PostgreSQL delivers it only if the change
 * commits, and only after it is visible.
 *
 * The channel is named after the database schema the content lives in, so
 * sites (or test runs) that share one PostgreSQL database in separate
 * schemas do not hear each other.
 *
 * One dedicated connection listens. If it drops, it reconnects and reports a
 * change, since notices sent while it was away are lost.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { Database } from "../../platform/db/schema.ts";

const CHANNEL_PREFIX = "site_content_changed";
const RECONNECT_DELAY_MS = 1000;

export interface ChangeFeed {
  /** Queues the notice in `trx`; the other instances hear it when `trx` commits. */
  announce(trx: Kysely<Database>): Promise<void>;
  close(): Promise<void>;
}

/** A single instance (SQLite) has no one to tell. */
export const SOLO_FEED: ChangeFeed = {
  async announce() {},
  async close() {},
};

export async function listenForChanges(
  databaseUrl: string,
  onChange: () => void,
  log: Pick<FastifyBaseLogger, "warn">,
): Promise<ChangeFeed> {
  // Our own notices come back to us too; the payload tells them apart.
  const instance = randomUUID();
  let client: pg.Client | null = null;
  let channel = CHANNEL_PREFIX;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on("notification", ({ payload }) => {
      if (payload !== instance) onChange();
    });
    next.on("error", (error) => {
      log.warn({ err: error }, "content change feed lost its connection; reconnecting");
      reconnect(next);
    });
    await next.connect();
    const { rows } = await next.query<{ schema: string }>("select current_schema() as schema");
    channel = `${CHANNEL_PREFIX}:${rows[0]?.schema ?? "public"}`;
    await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    // A reconnection that finishes after close() would otherwise listen on, unowned.
    if (closed) await next.end();
    else client = next;
  }

  function reconnect(broken: pg.Client): void {
    if (closed || client !== broken) return;
    client = null;
    broken.end().catch(() => {});
    retry = setTimeout(function attempt() {
      connect()
        .then(onChange)
        .catch((error: unknown) => {
          log.warn({ err: error }, "content change feed could not reconnect; retrying");
          if (!closed) retry = setTimeout(attempt, RECONNECT_DELAY_MS);
        });
    }, RECONNECT_DELAY_MS);
  }

  await connect();
  return {
    async announce(trx) {
      await sql`select pg_notify(${channel}, ${instance})`.execute(trx);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end();
    },
  };
}
