/**
 * The weekly digest (AUDIENCE_DIGEST, off by default): from Monday 07:00
 * UTC, last week (Monday to Sunday) beside the week before, mailed to every
 * owner. Seven hours into the Monday, so the last counts of Sunday have long
 * been flushed, and the mail is there when the firm's week begins.
 *
 * Each week's digest is sent once, however many instances run: the one
 * whose insert of the week into `audience_digests` goes through queues the
 * owners' mail in that same transaction, so the claim and the mail are
 * committed together or not at all. An instance that starts later in the
 * week, or after a restart, finds the week taken and sends nothing.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Period } from "../../../shared/admin/audience.ts";
import { ownerAddresses } from "../../platform/console/users.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import { AUDIENCE_DIGEST_KIND, audienceDigestMail, type DigestFigures } from "./digest-mail.tsx";
import { breakdownOf, periodFigures } from "./figures.ts";
import { addDays, dayOf } from "./periods.ts";
import type { AudienceSettings } from "./server-settings.ts";

const HOUR_MS = 3_600_000;
/** How far into the Monday (UTC) the digest is due. */
const DUE_AFTER_MS = 7 * HOUR_MS;
/** The longest sleep between looks: a clock moved is seen this late at most. */
const POLL_CAP_MS = 15 * 60_000;
/** How many pages, channels and referrers the digest lists. */
const LISTED = 5;

/** The Monday (YYYY-MM-DD, UTC) of the week `at` falls in. */
export function mondayOf(at: number): string {
  const day = dayOf(at);
  // getUTCDay: Sunday 0 … Saturday 6; Monday is 0 days back, Sunday 6.
  const back = (new Date(`${day}T00:00:00.000Z`).getUTCDay() + 6) % 7;
  return addDays(day, -back);
}

/** When the digest of the week starting on `monday` is due (epoch ms). */
const dueAt = (monday: string) => Date.parse(`${monday}T00:00:00.000Z`) + DUE_AFTER_MS;

/** The week whose digest is due at `at` (its Monday), or null before Monday 07:00 UTC. */
export function dueWeek(at: number): string | null {
  const monday = mondayOf(at);
  return at >= dueAt(monday) ? monday : null;
}

/** The week a digest sent in the week of `monday` is about, and the one before it. */
export function digestWeeks(monday: string): { week: Period; weekBefore: Period } {
  const from = addDays(monday, -7);
  return {
    week: { from, to: addDays(monday, -1), days: 7 },
    weekBefore: { from: addDays(from, -7), to: addDays(from, -1), days: 7 },
  };
}

/** The figures of the digest sent in the week of `monday`. */
export async function digestFigures(
  db: DatabaseHandle["db"],
  monday: string,
): Promise<DigestFigures> {
  const { week, weekBefore } = digestWeeks(monday);
  const [current, previous, pages, channels, referrers] = await Promise.all([
    periodFigures(db, week),
    periodFigures(db, weekBefore),
    breakdownOf(db, "page", week, LISTED),
    breakdownOf(db, "channel", week, LISTED),
    breakdownOf(db, "referrer", week, LISTED + 1),
  ]);
  return {
    week,
    weekBefore,
    totals: current.totals,
    previous: previous.totals,
    pages: pages.rows.filter((row) => row.visits > 0),
    channels: channels.rows.filter((row) => row.visits > 0),
    // A visit that named no referrer is in the channels (direct); here, only the sites that sent one.
    referrers: referrers.rows.filter((row) => row.value !== "" && row.visits > 0).slice(0, LISTED),
  };
}

export interface DigestOptions {
  config: PlatformConfig & AudienceSettings & MailDefaultSettings;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Commits a change with the mail it queues, and wakes the sender. */
  withOutbox: <T>(work: (trx: OutboxTransaction) => Promise<T>) => Promise<T>;
  /** The clock the weeks are cut by (epoch ms). */
  now: () => number;
}

/**
 * Sends the digest of the week starting on `monday` unless an instance has:
 * "elsewhere" when one had, else how many owners it was queued for.
 */
export async function sendWeeklyDigest(
  { config, withOutbox, now }: Pick<DigestOptions, "config" | "withOutbox" | "now">,
  monday: string,
): Promise<"elsewhere" | number> {
  return withOutbox(async (trx) => {
    const owners = await ownerAddresses(trx);
    const claimed = await trx
      .insertInto("audience_digests")
      .values({ week: monday, sent_at: new Date(now()).toISOString(), recipients: owners.length })
      .onConflict((conflict) => conflict.column("week").doNothing())
      .returning("week")
      .executeTakeFirst();
    if (!claimed) return "elsewhere";
    const figures = await digestFigures(trx, monday);
    const settings = {
      from: (await currentMailSettings(trx, config)).from,
      publicOrigin: config.PUBLIC_ORIGIN,
    };
    for (const email of owners) {
      await enqueueMail(trx, AUDIENCE_DIGEST_KIND, audienceDigestMail(email, figures, settings));
    }
    return owners.length;
  });
}

export class DigestScheduler extends PollingWorker {
  /** The last week this instance settled (sent, or found sent). */
  private settled: string | null = null;

  constructor(private readonly options: DigestOptions) {
    super();
  }

  protected async round(): Promise<void> {
    const { log, now } = this.options;
    const monday = dueWeek(now());
    if (monday === null || monday === this.settled) return;
    try {
      const outcome = await sendWeeklyDigest(this.options, monday);
      this.settled = monday;
      if (outcome === "elsewhere")
        log.info({ week: monday }, "audience digest sent by another instance");
      else log.info({ week: monday, owners: outcome }, "audience digest queued");
    } catch (error) {
      log.error({ err: error, week: monday }, "audience digest failed; retrying on the next poll");
    }
  }

  /** Until this week's digest is due (or next week's, once this one is settled), looking again now and then. */
  protected async sleepTime(): Promise<number> {
    const at = this.options.now();
    const monday = mondayOf(at);
    const due = monday === this.settled ? dueAt(addDays(monday, 7)) : dueAt(monday);
    return Math.max(1000, Math.min(POLL_CAP_MS, due - at));
  }
}
