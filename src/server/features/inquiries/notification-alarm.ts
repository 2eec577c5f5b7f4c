/**
 * The alarm when the firm was not told of an inquiry: the outbox gave up on
 * its notification (refused for good, or out of attempts), or a bounce
 * report for it came back later (the bounce mailbox, a provider's webhook). Every owner, and
 * ALERT_TO, gets a mail naming the inquiry, once per inquiry at most: one
 * conditional UPDATE marks the inquiry alarmed before anything is sent, so
 * a second report of the same failure finds it marked.
 *
 * The alarm is sent at once through a nodemailer transport of its own, to
 * ALERT_SMTP_URL when set, not queued in the outbox: the outbox is the
 * route that just failed. Queued there, the alarm would wait behind the
 * same sender and the same server, and fail or come late with them.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { type MailMessage, recipientAddress } from "../../platform/outbox/message.ts";
import { smtpMailer } from "../../platform/outbox/transport.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import { notificationFailedAlarm, type UnnotifiedInquiry } from "./mail.tsx";
import type { InquiriesSettings } from "./server-settings.ts";

/** The second route: a mail server and, besides the owners, a second address. */
interface AlarmRoute {
  smtpUrl: string;
  alertTo: string | undefined;
}

/**
 * ALERT_SMTP_URL, else the main server when only ALERT_TO is set; null
 * without either, or without any server (mail then goes to a folder, where
 * nothing fails for want of a recipient).
 */
function alarmRoute(config: PlatformConfig & InquiriesSettings): AlarmRoute | null {
  if (!config.ALERT_SMTP_URL && !config.ALERT_TO) return null;
  const smtpUrl = config.ALERT_SMTP_URL ?? config.SMTP_URL;
  return smtpUrl ? { smtpUrl, alertTo: config.ALERT_TO } : null;
}

/**
 * Marks the inquiry whose notification the outbox row was as alarmed, and
 * reads what the alarm names of it, with the address the failed message
 * went to; undefined when the row was no inquiry's notification, or its
 * inquiry was alarmed before.
 */
async function markAlarmed(
  db: Kysely<Database>,
  outboxId: number,
): Promise<UnnotifiedInquiry | undefined> {
  const row = await db
    .updateTable("inquiries")
    .set({ notification_alarmed_at: nowIso() })
    .where("notification_outbox_id", "=", outboxId)
    .where("notification_alarmed_at", "is", null)
    .returning(["id", "created_at", "inquiry_type", "first_name", "last_name", "company"])
    .executeTakeFirst();
  if (!row) return undefined;
  const notification = await db
    .selectFrom("outbox")
    .select("message")
    .where("id", "=", outboxId)
    .executeTakeFirst();
  const message = notification && (JSON.parse(notification.message) as Partial<MailMessage>);
  return {
    id: row.id,
    receivedAt: row.created_at,
    inquiryType: row.inquiry_type,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    notifiedAddress: message?.to ? recipientAddress(message.to) : null,
  };
}

/** Every owner's address, and ALERT_TO, each once. */
async function alarmRecipients(db: Kysely<Database>, alertTo: string | undefined) {
  const owners = await db
    .selectFrom("users")
    .select("email")
    .where("role", "=", "owner")
    .orderBy("email")
    .execute();
  const addresses = owners.map((owner) => owner.email.toLowerCase());
  return [...new Set(alertTo ? [...addresses, alertTo.toLowerCase()] : addresses)];
}

export interface NotificationAlarmOptions {
  config: PlatformConfig & InquiriesSettings & MailDefaultSettings;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}

/**
 * Alarms the owners of a message that did not reach the firm: the outbox
 * gave up on it, or a report came back for it. Does nothing unless the
 * message was an inquiry's notification, not alarmed before.
 */
export type NotificationAlarm = (outboxId: number, reason: string) => Promise<void>;

/**
 * The alarm, or undefined when no second route is configured, and then
 * only the inbox ("failed") and the log tell.
 */
export function notificationAlarm({
  config,
  db,
  log,
}: NotificationAlarmOptions): NotificationAlarm | undefined {
  const route = alarmRoute(config);
  if (!route) {
    log.warn("no alarm route for failed inquiry notifications: set ALERT_SMTP_URL or ALERT_TO");
    return undefined;
  }
  return async (outboxId, reason) => {
    const inquiry = await markAlarmed(db, outboxId);
    if (!inquiry) return;
    log.error(
      { inquiry: inquiry.id, outboxId },
      "the firm was not notified of an inquiry; alarming the owners",
    );
    const recipients = await alarmRecipients(db, route.alertTo);
    if (recipients.length === 0) {
      log.error({ inquiry: inquiry.id }, "no owner and no ALERT_TO to alarm");
      return;
    }
    // The sender as it is now, whoever changed it where.
    const { from } = await currentMailSettings(db, config);
    const settings = { from, publicOrigin: config.PUBLIC_ORIGIN };
    const mailer = smtpMailer(route.smtpUrl);
    try {
      for (const to of recipients) {
        // Each on its own: one refused recipient does not keep the alarm from the others.
        await mailer
          .send(notificationFailedAlarm(inquiry, to, reason, settings))
          .catch((error: unknown) =>
            log.error({ err: error, inquiry: inquiry.id }, "an owner's alarm was not accepted"),
          );
      }
    } finally {
      mailer.close();
    }
  };
}
