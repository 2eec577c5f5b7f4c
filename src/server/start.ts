/**
 * Starts the site: validates the environment (with the env file's
 * variables, settings.ts processConfig), migrates and seeds the
 * database, builds the app and serves. close-with-grace shuts it down
 * cleanly on SIGTERM or SIGINT (in-flight requests finish, queued mail stays
 * queued), exits at once on a second signal, and on an uncaught error logs
 * it, closes, and exits 1. main.ts starts the built site with it;
 * `npm run dev` starts it with pages rendered from Vite.
 */
import closeWithGrace from "close-with-grace";
import { type App, type AppOptions, buildApp } from "./app.ts";
import { seedOnce } from "./features/content/index.ts";
import type { PageRenderer } from "./features/pages/index.ts";
import { openDatabase } from "./platform/db/connection.ts";
import { holdInstanceLock } from "./platform/db/instance-lock.ts";
import { migrateToLatest } from "./platform/db/migrations.ts";
import { WalCheckpoints } from "./platform/db/wal-checkpoints.ts";
import { createLogger, DROPPED_LINES_MESSAGE } from "./platform/ops/logger.ts";
import { Refusal } from "./platform/refusal.ts";
import { type Config, processConfig } from "./settings.ts";

/** How long the last lines may take to leave at exit; a stalled reader does not get longer. */
const LOG_FLUSH_LIMIT_MS = 500;

export interface StartOptions {
  /** What renders the pages, once the configuration is known. */
  renderer(config: Config): Promise<PageRenderer | null>;
  serverFactory?: AppOptions["serverFactory"];
  /** Last words with the app before it listens (hooks, watchers). */
  beforeListen?(app: App): void;
}

export async function startSite({ renderer, serverFactory, beforeListen }: StartOptions) {
  const config = processConfig();
  const { logger, destination } = createLogger(config);
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
    log: logger,
  });
  // Held until the end: a restore is refused while any instance runs here (ADR 064).
  const instanceLock = await holdInstanceLock(
    { databaseUrl: config.DATABASE_URL, sqliteFile: config.SQLITE_FILE },
    logger,
  );
  await migrateToLatest(database.db, database.engine);
  const seeded = await seedOnce(database.db, config.CONTENT_DIR);
  // A large commit must not hold visitors while SQLite copies it into the file.
  const checkpoints =
    database.engine === "sqlite" && config.SQLITE_FILE !== ":memory:"
      ? await WalCheckpoints.takeOver(database, config.SQLITE_FILE, logger)
      : undefined;
  checkpoints?.start();

  const app = await buildApp({
    config,
    database,
    loggerInstance: logger,
    renderer: await renderer(config),
    ...(serverFactory ? { serverFactory } : {}),
  });
  app.log.info({ engine: database.engine, seeded }, "database ready");

  closeWithGrace(
    { delay: config.SHUTDOWN_DRAIN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS, logger: app.log },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, "uncaught error; shutting down");
      else app.log.info({ signal }, "shutting down: finishing in-flight requests");
      // A signal is a planned stop: the proxies get time to send requests elsewhere.
      await app.drainAndClose(err ? 0 : config.SHUTDOWN_DRAIN_DELAY_MS);
      await checkpoints?.stop();
      await database.db.destroy();
      await instanceLock.release();
      if (destination.dropped > 0) {
        logger.warn(
          { droppedLines: destination.dropped },
          `${DROPPED_LINES_MESSAGE} (since start)`,
        );
      }
      await destination.flushed(LOG_FLUSH_LIMIT_MS);
    },
  );

  beforeListen?.(app);
  await app.listen({ port: config.PORT, host: config.HOST });
}

/** Runs `start`, and ends the process with one line when it cannot start. */
export function startOrExit(start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    if (error instanceof Refusal) {
      console.error(error.message);
    } else {
      console.error("Failed to start:", error);
    }
    process.exit(1);
  });
}
