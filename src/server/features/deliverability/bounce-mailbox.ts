/**
 * Reads the bounce mailbox over IMAP (BOUNCE_IMAP_URL) now and again:
 * each new message that is a report is traced to its message, recorded and
 * marked as read; a message that is not a report is left as it is, never
 * deleted. Where it stopped is kept per mailbox (its UIDVALIDITY and the
 * last UID read), so a restart reads each message once; several instances
 * reading the same mailbox record each report once (its source key).
 */
import type { FastifyBaseLogger } from "fastify";
import { ImapFlow } from "imapflow";
import type { Kysely } from "kysely";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import {
  type OnHardBounce,
  recordReport,
  type SoftBouncePolicy,
  tellOfHardBounce,
} from "./record.ts";
import { readReport } from "./reports.ts";
import { type BounceSigning, traceReport } from "./trace.ts";

/** Messages fetched whole at a time: a mailbox full of bounces is read in bounded memory. */
const FETCH_BATCH = 50;

export interface MailboxLocation {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
}

/** imaps://user:pass@host:993/INBOX, the mailbox defaulting to INBOX. */
export function mailboxLocation(url: string): MailboxLocation {
  const parsed = new URL(url);
  const secure = parsed.protocol === "imaps:";
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(parsed.username),
    pass: decodeURIComponent(parsed.password),
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "INBOX",
  };
}

export interface BounceMailboxOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  location: MailboxLocation;
  signing: BounceSigning;
  policy: SoftBouncePolicy;
  pollMs: number;
  onHardBounce?: OnHardBounce;
}

export class BounceMailboxReader extends PollingWorker {
  constructor(private readonly options: BounceMailboxOptions) {
    super();
  }

  protected async sleepTime(): Promise<number> {
    return this.options.pollMs;
  }

  protected async round(): Promise<void> {
    const { location, log } = this.options;
    const client = new ImapFlow({
      host: location.host,
      port: location.port,
      secure: location.secure,
      auth: { user: location.user, pass: location.pass },
      logger: false,
    });
    // A dropped connection is reported by the failed command; without a
    // listener the emitter's error would end the process.
    client.on("error", (error: Error) =>
      log.warn({ err: error }, "bounce mailbox connection error"),
    );
    try {
      await client.connect();
      const lock = await client.getMailboxLock(location.mailbox);
      try {
        await this.readNew(client);
      } finally {
        lock.release();
      }
      await client.logout();
    } catch (error) {
      log.error(
        { err: error, host: location.host },
        "bounce mailbox unreadable; trying again later",
      );
      client.close();
    }
  }

  private async readNew(client: ImapFlow): Promise<void> {
    const opened = client.mailbox;
    if (!opened) return;
    const key = `bounce_mailbox:${this.options.location.user}@${this.options.location.host}/${this.options.location.mailbox}:${opened.uidValidity}`;
    const last = await this.lastUid(key);
    const found = await client.search({ uid: `${last + 1}:*` }, { uid: true });
    // "N:*" always matches the newest message, even one read before.
    const uids = (found || []).filter((uid) => uid > last).sort((a, b) => a - b);
    for (let start = 0; start < uids.length && !this.stopped; start += FETCH_BATCH) {
      const batch = uids.slice(start, start + FETCH_BATCH);
      const messages = await client.fetchAll(
        batch.join(","),
        { uid: true, source: true },
        { uid: true },
      );
      const reports: number[] = [];
      for (const message of messages.sort((a, b) => a.uid - b.uid)) {
        if (message.source && (await this.read(message.source, `${key}:${message.uid}`))) {
          reports.push(message.uid);
        }
      }
      if (reports.length > 0)
        await client.messageFlagsAdd(reports.join(","), ["\\Seen"], { uid: true });
      await this.saveLastUid(key, batch[batch.length - 1] ?? last);
    }
  }

  /** Records one message if it is a report; true when it was one. */
  private async read(source: Buffer, sourceKey: string): Promise<boolean> {
    const { db, log, signing, policy } = this.options;
    const report = await readReport(source);
    if (!report) return false;
    const traced = await traceReport(db, report, signing, log);
    if (traced) {
      const result = await recordReport(
        db,
        { ...traced, source: "mailbox", sourceKey: `mailbox:${sourceKey}` },
        policy,
      );
      await tellOfHardBounce(traced, result, this.options.onHardBounce, log);
      log.info(
        { kind: traced.kind, status: traced.status, outboxId: traced.outboxId, ...result },
        "report read from the bounce mailbox",
      );
    }
    return true;
  }

  private async lastUid(key: string): Promise<number> {
    const row = await this.options.db
      .selectFrom("site_meta")
      .select("value")
      .where("key", "=", key)
      .executeTakeFirst();
    return row ? Number(row.value) : 0;
  }

  private async saveLastUid(key: string, uid: number): Promise<void> {
    const now = nowIso();
    await this.options.db
      .insertInto("site_meta")
      .values({ key, value: String(uid), created_at: now, updated_at: now })
      .onConflict((c) => c.column("key").doUpdateSet({ value: String(uid), updated_at: now }))
      .execute();
  }
}
