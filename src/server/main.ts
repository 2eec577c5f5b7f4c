/**
 * Starts the site: validates the environment, migrates and seeds the
 * database, serves, and shuts down cleanly on SIGTERM or SIGINT.
 */
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrations.ts";
import { seedOnce } from "./db/seed.ts";
import { OutboxSender } from "./mail/outbox-sender.ts";
import { mailboxMailer, smtpMailer } from "./mail/transport.ts";

async function main() {
  const config = loadConfig();
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  await migrateToLatest(database.db, database.engine);
  const seeded = await seedOnce(database.db, config.CONTENT_DIR);

  const app = await buildApp({ config, database });
  const mailer = config.SMTP_URL
    ? smtpMailer(config.SMTP_URL)
    : mailboxMailer(config.MAILBOX_DIR, app.log);
  const sender = new OutboxSender({
    db: database.db,
    engine: database.engine,
    mailer,
    log: app.log,
    policy: {
      pollMs: config.OUTBOX_POLL_MS,
      maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
      retryBaseMs: config.OUTBOX_RETRY_BASE_MS,
      retryMaxMs: config.OUTBOX_RETRY_MAX_MS,
      leaseMs: config.OUTBOX_LEASE_MS,
    },
  });
  app.mailQueue.onQueued = () => sender.wake();
  app.addHook("onClose", async () => {
    await sender.stop();
    mailer.close();
    await database.db.destroy();
  });
  app.log.info({ engine: database.engine, seeded, mail: mailer.description }, "database ready");

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
  sender.start();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error("Failed to start:", error);
  }
  process.exit(1);
});
