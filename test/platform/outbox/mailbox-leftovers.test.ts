import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { mailboxMailer } from "../../../src/server/platform/outbox/transport.ts";

function recordingLog() {
  const warnings: unknown[] = [];
  const log = {
    info() {},
    warn: (entry: unknown) => warnings.push(entry),
  } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

describe("the mailbox folder after a crash", () => {
  it("loses the half-written .eml.tmp files and keeps every complete message and other file", () => {
    const dir = mkdtempSync(join(tmpdir(), "mailbox-"));
    writeFileSync(join(dir, "2026-01-01T00-00-00-000Z-a.eml.tmp"), "From: half a mess");
    writeFileSync(join(dir, "2026-01-01T00-00-00-000Z-b.eml"), "From: site\r\n\r\nwhole");
    writeFileSync(join(dir, "notes.tmp"), "not ours");
    const { log, warnings } = recordingLog();

    const mailer = mailboxMailer(dir, log);
    mailer.close();

    expect(readdirSync(dir).sort()).toEqual(["2026-01-01T00-00-00-000Z-b.eml", "notes.tmp"]);
    expect(warnings).toEqual([
      expect.objectContaining({ removed: ["2026-01-01T00-00-00-000Z-a.eml.tmp"] }),
    ]);
  });

  it("starts with a folder that does not exist yet and writes into it later", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "mailbox-")), "not-yet");
    const { log, warnings } = recordingLog();
    const mailer = mailboxMailer(dir, log);
    await mailer.send({
      messageId: "<m@site>",
      from: "site@example.com",
      to: "reader@example.com",
      subject: "Hello",
      text: "Hello",
      html: "<p>Hello</p>",
    });
    mailer.close();
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/\.eml$/)]);
    expect(warnings).toEqual([]);
  });
});
