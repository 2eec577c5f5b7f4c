/**
 * The mail settings in force: what an owner saved in the console, else the
 * environment's variable. Read from the one-row table at each use (a lookup
 * by primary key), in the caller's transaction when it has one, so a change
 * saved through any instance is used by every instance's very next mail.
 */
import type { Kysely } from "kysely";
import type {
  MailSettingsDefaults,
  MailSettingsValues,
} from "../../../shared/admin/mail-settings.ts";
import type { Database } from "../../platform/db/schema.ts";
import { fromHeader, parseMailbox } from "../../platform/outbox/mailbox.ts";
import type { MailDefaultSettings } from "./server-settings.ts";

/** The settings every mail is made with. */
export interface MailSettings {
  /** The From of every mail, as a header writes it. */
  from: string;
  /** Where each inquiry's notification goes: one to ten addresses. */
  inquiryTo: string[];
  /** Copies a second for a send that starts now. */
  newsletterRate: number;
  doubleOptIn: boolean;
  /** The welcome's own text (Markdown); null for the built-in one. */
  welcomeText: string | null;
}

/** What the environment gives each setting, as the console shows it. */
export function mailDefaults(config: MailDefaultSettings): MailSettingsDefaults {
  // MAIL_FROM was read as one mailbox at start, so it reads back as one.
  const sender = parseMailbox(config.MAIL_FROM);
  if ("refusal" in sender) throw new Error(`MAIL_FROM ${sender.refusal}`);
  return {
    senderName: sender.name,
    senderAddress: sender.address,
    inquiryTo: [config.INQUIRY_TO],
    newsletterRate: config.NEWSLETTER_RATE_PER_SECOND,
    doubleOptIn: config.NEWSLETTER_DOUBLE_OPT_IN,
  };
}

/** The stored row, or its absence, as the console's values: null where the environment decides. */
export interface StoredMailSettings {
  version: number;
  updatedAt: string | null;
  saved: MailSettingsValues;
}

const NOTHING_SAVED: MailSettingsValues = {
  senderName: null,
  senderAddress: null,
  inquiryTo: null,
  newsletterRate: null,
  doubleOptIn: null,
  welcomeText: null,
};

export async function storedMailSettings(db: Kysely<Database>): Promise<StoredMailSettings> {
  const row = await db
    .selectFrom("mail_settings")
    .selectAll()
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row) return { version: 0, updatedAt: null, saved: NOTHING_SAVED };
  return {
    version: row.version,
    updatedAt: new Date(row.updated_at).toISOString(),
    saved: {
      senderName: row.sender_name,
      senderAddress: row.sender_address,
      inquiryTo: row.inquiry_to === null ? null : (JSON.parse(row.inquiry_to) as string[]),
      newsletterRate: row.newsletter_rate,
      doubleOptIn: row.double_opt_in === null ? null : row.double_opt_in === 1,
      welcomeText: row.welcome_text,
    },
  };
}

/** The settings in force now: each saved one, else its environment variable. */
export async function currentMailSettings(
  db: Kysely<Database>,
  config: MailDefaultSettings,
): Promise<MailSettings> {
  const { saved } = await storedMailSettings(db);
  return {
    from:
      saved.senderName !== null && saved.senderAddress !== null
        ? fromHeader({ name: saved.senderName, address: saved.senderAddress })
        : config.MAIL_FROM,
    inquiryTo: saved.inquiryTo ?? [config.INQUIRY_TO],
    newsletterRate: saved.newsletterRate ?? config.NEWSLETTER_RATE_PER_SECOND,
    doubleOptIn: saved.doubleOptIn ?? config.NEWSLETTER_DOUBLE_OPT_IN,
    welcomeText: saved.welcomeText,
  };
}

/** Reads the settings in force, in a transaction or not: what the other features are handed. */
export type MailSettingsReader = (db: Kysely<Database>) => Promise<MailSettings>;

export function mailSettingsReader(config: MailDefaultSettings): MailSettingsReader {
  return (db) => currentMailSettings(db, config);
}
