/**
 * Starts the site: validates the environment, migrates and seeds the
 * database, and serves. close-with-grace shuts it down cleanly on SIGTERM or
 * SIGINT (in-flight requests finish, queued mail stays queued), exits at once
 * on a second signal, and on an uncaught error logs it, closes, and exits 1.
 */
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrations.ts";
import { seedOnce } from "./db/seed.ts";
import { loadPageRenderer } from "./pages/renderer.ts";

async function main() {
  const config = loadConfig();
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  await migrateToLatest(database.db, database.engine);
  const seeded = await seedOnce(database.db, config.CONTENT_DIR);

  const renderer = await loadPageRenderer(config.SERVER_BUILD);
  const app = await buildApp({ config, database, renderer });
  app.log.info({ engine: database.engine, seeded }, "database ready");

  closeWithGrace(
    { delay: config.SHUTDOWN_TIMEOUT_MS, logger: app.log },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, "uncaught error; shutting down");
      else app.log.info({ signal }, "shutting down: finishing in-flight requests");
      await app.close();
      await database.db.destroy();
    },
  );

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
