/**
 * Starts the site: validates the environment, migrates and seeds the
 * database, serves, and shuts down cleanly on SIGTERM or SIGINT.
 */
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrations.ts";
import { seedOnce } from "./db/seed.ts";

async function main() {
  const config = loadConfig();
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  await migrateToLatest(database.db, database.engine);
  const seeded = await seedOnce(database.db, config.CONTENT_DIR);

  const app = await buildApp({ config, database });
  app.addHook("onClose", async () => database.db.destroy());
  app.log.info({ engine: database.engine, seeded }, "database ready");

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const timer = setTimeout(() => {
      app.log.error("shutdown timed out; exiting");
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error("Failed to start:", error);
  }
  process.exit(1);
});
