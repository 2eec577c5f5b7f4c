/**
 * Reads the bounce mailbox over IMAP (BOUNCE_IMAP_URL) now and again. Each
 * new message is read on its own, on a worker thread: a report that proves
 * which message of ours it is about is traced, recorded and marked as read;
 * a report that does not is set aside unverified and marked as read; a
 * message that cannot be read (too large, over a bound, too slow, or
 * anything else that fails) is set aside as unreadable and left unread. A
 * message that is no report is left as it is. Nothing is ever deleted.
 *
 * Where it stopped is kept per mailbox (its UIDVALIDITY and the last UID
 * read), saved after each message, so a restart, or a message that cannot
 * be read, never makes it read a message twice; several instances reading
 * the same mailbox record each message once (its source key).
 */
import type { FastifyBaseLogger } from "fastify";
import { ImapFlow } from "imapflow";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { nowIso } from "../../platform/db/schema.ts";
import {
  type OffThread,
  OffThreadFailure,
  offThread,
  siblingModule,
} from "../../platform/ops/off-thread.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import {
  type OnHardBounce,
  recordReport,
  type SoftBouncePolicy,
  tellOfHardBounce,
} from "./record.ts";
import type { ReadOutcome } from "./report-worker.ts";
import { type DeliveryReport, megabytes, REPORT_LIMITS } from "./reports.ts";
import { setAside } from "./set-aside.ts";
import { type BounceSigning, traceReport } from "./trace.ts";

/** Messages whose sizes are asked for at a time; each one's source is then fetched alone. */
const FETCH_BATCH = 50;

/** How long reading one message may take, and how much heap its worker may use. */
export interface ReadLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

/**
 * Long enough to start a worker and parse a message at REPORT_LIMITS many
 * times over: a few megabytes of mail parse in well under a second.
 */
const READ_LIMITS: ReadLimits = { timeoutMs: 10_000, maxHeapMb: 128 };

/** Why a message whose reading failed was not read, for the console. */
function unreadableWhy(failure: OffThreadFailure, limits: ReadLimits): string {
  switch (failure.reason) {
    case "timeout":
      return `Reading it took longer than ${limits.timeoutMs / 1000} seconds, so it was stopped.`;
    case "memory":
      return `Reading it needed more than ${limits.maxHeapMb} MiB of memory, so it was stopped.`;
    case "error":
      return "Reading it failed; the server's log says why.";
  }
}

const ACTING_FAILED = "It was read, but acting on it failed; the server's log says why.";

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
  database: Pick<DatabaseHandle, "db" | "engine">;
  log: FastifyBaseLogger;
  location: MailboxLocation;
  signing: BounceSigning;
  policy: SoftBouncePolicy;
  pollMs: number;
  onHardBounce?: OnHardBounce;
  /** What reads each message on its worker thread: report-worker.ts within READ_LIMITS unless given. */
  reading?: { module: URL; limits: ReadLimits };
}

/** What became of one message. */
type Taken = "report" | "not-report" | "unreadable";

export class BounceMailboxReader extends PollingWorker {
  private readonly reading: OffThread<Uint8Array, ReadOutcome>;
  private readonly limits: ReadLimits;

  constructor(private readonly options: BounceMailboxOptions) {
    super();
    const { module, limits } = options.reading ?? {
      module: siblingModule(import.meta.url, "report-worker"),
      limits: READ_LIMITS,
    };
    this.limits = limits;
    this.reading = offThread(module, {
      what: "reading a message from the bounce mailbox",
      ...limits,
      log: options.log,
    });
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.reading.close();
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
      // Sizes first: a message over the bound is set aside without being fetched.
      const listed = await client.fetchAll(
        batch.join(","),
        { uid: true, size: true },
        { uid: true },
      );
      for (const { uid, size } of listed.sort((a, b) => a.uid - b.uid)) {
        if (this.stopped) return;
        const taken = await this.take(client, uid, size ?? 0, `mailbox:${key}:${uid}`);
        if (taken === "report")
          await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
        await this.saveLastUid(key, uid);
      }
    }
  }

  /**
   * Reads one message and acts on it. Whatever fails about the message
   * sets it aside as unreadable; only a failure to reach the mailbox or
   * the database stops the round, which then starts again at this message.
   */
  private async take(
    client: ImapFlow,
    uid: number,
    size: number,
    sourceKey: string,
  ): Promise<Taken> {
    const { log } = this.options;
    if (size > REPORT_LIMITS.messageBytes) {
      return this.unreadable(
        uid,
        sourceKey,
        `It is ${megabytes(size)}, over the ${megabytes(REPORT_LIMITS.messageBytes)} a report may be.`,
      );
    }
    const message = await client.fetchOne(
      String(uid),
      { uid: true, source: { maxLength: REPORT_LIMITS.messageBytes } },
      { uid: true },
    );
    // Gone since it was listed (moved or deleted by a person).
    if (message === false || !message.source) return "not-report";

    let outcome: ReadOutcome;
    try {
      outcome = await this.reading.run(message.source);
    } catch (error) {
      if (!(error instanceof OffThreadFailure)) throw error;
      log.warn({ err: error, uid }, "a message in the bounce mailbox could not be read");
      return this.unreadable(uid, sourceKey, unreadableWhy(error, this.limits));
    }
    if ("unreadable" in outcome) return this.unreadable(uid, sourceKey, outcome.unreadable);
    if (!outcome.report) return "not-report";
    try {
      await this.act(outcome.report, uid, sourceKey);
      return "report";
    } catch (error) {
      log.error({ err: error, uid }, "a report from the bounce mailbox could not be acted on");
      return this.unreadable(uid, sourceKey, ACTING_FAILED);
    }
  }

  /** Records a report that proves its message, or sets it aside unverified. */
  private async act(report: DeliveryReport, uid: number, sourceKey: string): Promise<void> {
    const { database, log, signing, policy } = this.options;
    const trace = await traceReport(database, report, signing, log);
    if (!trace.verified) {
      await setAside(database.db, {
        sourceKey,
        state: "unverified",
        email: trace.email,
        kind: report.kind,
        status: report.status,
        why: trace.why,
        text: report.text,
      });
      log.info({ kind: report.kind, uid }, "report set aside unverified");
      return;
    }
    const traced = trace.report;
    const result = await recordReport(
      database.db,
      { ...traced, source: "mailbox", sourceKey },
      policy,
    );
    await tellOfHardBounce(traced, result, this.options.onHardBounce, log);
    log.info(
      { kind: traced.kind, status: traced.status, outboxId: traced.outboxId, uid, ...result },
      "report read from the bounce mailbox",
    );
  }

  private async unreadable(uid: number, sourceKey: string, why: string): Promise<Taken> {
    await setAside(this.options.database.db, {
      sourceKey,
      state: "unreadable",
      email: null,
      kind: null,
      status: null,
      why,
      text: "",
    });
    this.options.log.warn({ uid, why }, "bounce mailbox message set aside as unreadable");
    return "unreadable";
  }

  private async lastUid(key: string): Promise<number> {
    const row = await this.options.database.db
      .selectFrom("site_meta")
      .select("value")
      .where("key", "=", key)
      .executeTakeFirst();
    return row ? Number(row.value) : 0;
  }

  private async saveLastUid(key: string, uid: number): Promise<void> {
    const now = nowIso();
    await this.options.database.db
      .insertInto("site_meta")
      .values({ key, value: String(uid), created_at: now, updated_at: now })
      .onConflict((c) => c.column("key").doUpdateSet({ value: String(uid), updated_at: now }))
      .execute();
  }
}
