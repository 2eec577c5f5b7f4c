/**
 * A server of a browser test file's own, beside an SMTP server (smtp-server) that records
 * what it is sent, for journeys the shared test server cannot take: real
 * e-mail, other settings, a database prepared before the server starts. Each
 * takes a port the system has just found free, so any number run side by side,
 * a test file's repeats included.
 */
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServer } from "../../test/support/server-process.ts";
import { startSmtp, type TestSmtp } from "../../test/support/smtp.ts";

export interface OwnServer {
  origin: string;
  smtp: TestSmtp;
  /** The server's database, for a spec that reads or prepares it. */
  sqliteFile: string;
  close(): Promise<void>;
}

/** A new, empty database file: the server migrates and seeds it when it starts. */
export const newDatabaseFile = (label: string) =>
  join(mkdtempSync(join(tmpdir(), `${label}-e2e-`)), "site.db");

/**
 * A port nothing listens on: the system picks it for a listener that closes at
 * once. The server's origin must be known before it starts (its links and its
 * cross-site checks name it), so it cannot simply be told to listen on port 0.
 */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  await once(probe, "close");
  if (address === null || typeof address === "string") throw new Error("no TCP port was given");
  return address.port;
}

export async function startOwnServer(
  label: string,
  env: Record<string, string> = {},
): Promise<OwnServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const smtp = await startSmtp();
  const files = mkdtempSync(join(tmpdir(), `${label}-e2e-files-`));
  const sqliteFile = env.SQLITE_FILE ?? newDatabaseFile(label);
  let server: ServerProcess;
  try {
    server = await startServer({
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? "build/client",
      ADMIN_DIR: process.env.E2E_ADMIN_DIR ?? "build/admin",
      MEDIA_DIR: join(files, "media"),
      SMTP_URL: smtp.url,
      OUTBOX_POLL_MS: "100",
      RATE_LIMIT_PER_MINUTE: "1000",
      ...env,
      SQLITE_FILE: sqliteFile,
    });
  } catch (error) {
    await smtp.close();
    throw error;
  }
  return {
    origin,
    smtp,
    sqliteFile,
    async close() {
      server.child.kill("SIGTERM");
      await server.exited;
      await smtp.close();
    },
  };
}
