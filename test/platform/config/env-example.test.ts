/**
 * .env.example is the file an operator copies to .env: read as it is, by the
 * server's own loader, every value in it must mean what its comment says.
 * Its MAIL_FROM once read as the name alone, and mail left with no From.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { clientFor, type ServerProcess, startServer } from "../../support/server-process.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

/** The sender and the inquiries' address .env.example gives. */
const EXAMPLE_FROM = {
  name: "Meridian Consulting Group",
  address: "hello@meridian-consulting.example",
};
const EXAMPLE_INQUIRY_TO = "hello@meridian-consulting.example";

/** A server process starting on a machine whose cores other tests share, as the other process tests allow. */
const PROCESS_START_MS = 60_000;

describe("a server started with .env.example as its env file", () => {
  let smtp: TestSmtp;
  let server: ServerProcess;
  beforeAll(async () => {
    smtp = await startSmtp();
    const dir = mkdtempSync(join(tmpdir(), "env-example-"));
    server = await startServer({
      ENV_FILE: resolve(".env.example"),
      // The environment wins over the file: only where the data and the mail go differ.
      SQLITE_FILE: join(dir, "site.db"),
      MAILBOX_DIR: join(dir, "mail"),
      SMTP_URL: smtp.url,
      OUTBOX_POLL_MS: "50",
    });
  }, PROCESS_START_MS);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await smtp?.close();
  });

  it("sends an inquiry's notification from the example's sender, name and address", async () => {
    const client = await clientFor(server.origin);
    expect((await client.post("/api/v1/send-comment", VALID_INQUIRY)).status).toBe(200);
    const [mail] = await smtp.waitForMailTo(EXAMPLE_INQUIRY_TO);
    expect(mail?.parsed.from).toEqual(EXAMPLE_FROM);
  });
});
