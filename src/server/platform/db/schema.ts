/** Row types of every table, as Kysely sees them. */
import type { ColumnType, Generated } from "kysely";
import type { IssueStatus } from "../../../shared/admin/newsletter.ts";
import type { Role } from "../../../shared/admin/roles.ts";

/**
 * An ISO-8601 string, written and read back as one on both engines
 * (PostgreSQL's timestamps are turned into the same text as they are read:
 * connection.ts).
 */
export type Timestamp = ColumnType<string, string, string>;

interface Timestamps {
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Content rows the console edits: a version for stale-save checks, and a hidden flag (0 or 1). */
interface Versioned {
  version: Generated<number>;
  hidden: Generated<number>;
}

export interface SubscriptionsTable extends Timestamps, LeadSourceColumns {
  id: Generated<number>;
  email: string;
  subscribed_at: Timestamp;
  subscribed_via: string;
  unsubscribed_at: Timestamp | null;
  unsubscribed_via: string | null;
  /**
   * When the address was confirmed: at once without double opt-in, from the
   * confirmation link with it (NEWSLETTER_DOUBLE_OPT_IN). Issues go only to
   * confirmed, active addresses.
   */
  confirmed_at: Timestamp | null;
  /** The import the address came in by (subscriber_imports), or null. */
  import_id: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * When an imported subscriber first gave consent, as their former list
   * recorded it (its opt-in date): the day shown as subscribed, while
   * `subscribed_at` is when the import added them. Null for a subscription
   * asked for here; cleared when the address subscribes anew.
   */
  opted_in_at: ColumnType<string | null, string | null | undefined, string | null>;
  first_name: ColumnType<string | null, string | null | undefined, string | null>;
  last_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The fields a former list kept of the person: a JSON object of name to text. */
  fields: ColumnType<string, string | undefined, string>;
}

export type InquiryStatus = "new" | "in-progress" | "answered" | "closed" | "spam";

export interface InquiriesTable extends Timestamps, LeadSourceColumns {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  company: string;
  job_title: string;
  email: string;
  phone_number: string;
  inquiry_type: string;
  comments: string;
  status: Generated<InquiryStatus>;
  assignee_id: number | null;
  /** The firm's notification of it (an outbox row); null for inquiries from before they were linked. */
  notification_outbox_id: number | null;
  /** When the owners were told that its notification failed: once at most. */
  notification_alarmed_at: Timestamp | null;
  /** When someone first opened it in the console after its notification failed. */
  notification_failure_seen_at: Timestamp | null;
}

export interface TeamMembersTable extends Timestamps, Versioned {
  id: Generated<number>;
  position: number;
  fullname: string;
  title: string;
  image_path: string;
  bio: string;
}

export interface ContentItemsTable extends Timestamps, Versioned {
  id: Generated<number>;
  category: string;
  position: number;
  name: string;
  description: string;
  image_path: string | null;
  /** What the site's menu says under the entry; empty for its description's start. */
  menu_line: Generated<string>;
}

export interface CaseStudiesTable extends Timestamps, Versioned {
  id: Generated<number>;
  slug: string;
  position: number;
  title: string;
  summary: string;
  /** Each section's paragraphs, separated by a blank line. */
  opportunity: string;
  solution: string;
  work: string;
  /** The result Home shows ("38%"), and what it measures; both empty when there is none. */
  outcome_figure: Generated<string>;
  outcome_label: Generated<string>;
}

export interface SiteMetaTable extends Timestamps {
  key: string;
  value: string;
}

export type OutboxStatus = "pending" | "sent" | "failed";

/** Transactional mail (someone waits for it) is always claimed before bulk mail (newsletters). */
export type MailPriority = "transactional" | "bulk";

export interface OutboxTable extends Timestamps {
  id: Generated<number>;
  /**
   * What the message is for: inquiry-notification, inquiry-acknowledgement,
   * welcome, subscription-confirmation, account-invite, account-reset,
   * newsletter-test (transactional); newsletter (bulk).
   */
  kind: string;
  priority: Generated<MailPriority>;
  /** The complete message (addresses, subject, bodies, headers) as JSON. */
  message: string;
  status: OutboxStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  /** A sender's claim on the row; another sender may take it once this has passed. */
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  /**
   * A newsletter message: the issue and the subscription it is for. The
   * message itself holds only its Message-ID; the sender composes the rest
   * from the issue when it sends. One row per pair at most (a unique index).
   */
  issue_id: number | null;
  subscription_id: number | null;
  /**
   * The lower-cased domain of the recipient's address, set when queued:
   * bulk mail is paced per receiving domain (domain_pacing). Null for mail
   * queued before migration 018.
   */
  domain: string | null;
  /**
   * When the daily purge removed a sent message's subject, bodies and
   * headers, keeping its Message-ID, sender and recipient; null before.
   */
  body_removed_at: Timestamp | null;
}

export interface UsersTable extends Timestamps {
  id: Generated<number>;
  email: string;
  name: Generated<string>;
  role: Role;
  /** Argon2id (PHC string); null until the person sets a password through their link. */
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled_at: Timestamp | null;
  /** The last TOTP time step accepted for the account; codes of it and earlier steps are spent. */
  totp_last_step: number | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a leaked table holds no usable session. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** The absolute end, whatever the activity. */
  expires_at: Timestamp;
  ip: string;
  user_agent: string;
}

export type UserTokenPurpose = "invite" | "reset";

export interface UserTokensTable {
  token_hash: string;
  user_id: number;
  purpose: UserTokenPurpose;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface SignInThrottleTable {
  /** What is counted: an account at an address, an account's untrusted clients, an address, a device. */
  key: string;
  /** The account a key belongs to (null for an address's): its keys go when its password is set. */
  account: string | null;
  /** Attempts counted and not taken back by a success. */
  failures: number;
  locked_until: Timestamp | null;
  updated_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  /** Kept as a plain number: the entry outlives the account. */
  user_id: number | null;
  /** Who, as an e-mail address, or "system"/the typed address of a failed sign-in. */
  actor: string;
  action: string;
  target: string | null;
  ip: string | null;
  /** JSON with the particulars. */
  detail: string | null;
}

export interface InquiryNotesTable {
  id: Generated<number>;
  inquiry_id: number;
  author_id: number | null;
  author: string;
  body: string;
  created_at: Timestamp;
}

export interface SubscriptionEventsTable {
  id: Generated<number>;
  subscription_id: number;
  event: "subscribed" | "unsubscribed";
  /** How: the form or path (api, form, one-click, link, console, import). */
  via: string;
  at: Timestamp;
  /** An import's line: where the person gave consent, as the importer stated it. */
  consent_source: ColumnType<string | null, string | null | undefined, string | null>;
  /** An import's line: the day (YYYY-MM-DD) or moment the consent was given. */
  consent_date: ColumnType<string | null, string | null | undefined, string | null>;
  import_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** An unsubscribe by a link or one-click: the newest issue sent to the subscription then. */
  issue_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A list brought along: who imported what file when, with the consent statement and the counts. */
export interface SubscriberImportsTable {
  id: Generated<number>;
  file_name: string;
  /** mailchimp, substack, ghost or other. */
  format: string;
  consent_source: string;
  /** YYYY-MM-DD, as the importer gave it. */
  consent_date: string;
  /** 1 when each address must confirm by e-mail first, else 0. */
  double_opt_in: number;
  rows_read: number;
  added: number;
  already_on_list: number;
  refused: number;
  imported_by: number | null;
  created_at: Timestamp;
}

export interface ErasedSubscribersTable {
  /** Salted SHA-256 of the lower-cased address. */
  email_hash: string;
  erased_at: Timestamp;
}

export interface SiteFactsTable extends Timestamps {
  key: string;
  value: string;
  version: Generated<number>;
}

export interface ContentVersionsTable {
  id: Generated<number>;
  /** team, item, case-study or site-fact. */
  entity: string;
  entity_key: string;
  version: number;
  /** The whole record at this version, as JSON. */
  data: string;
  user_id: number | null;
  author: string;
  created_at: Timestamp;
}

/**
 * A record's draft: the fields an editor changed, not yet published (one per
 * record), with the version they were based on and, when scheduled, the time
 * the publisher is to apply them. `conflict` says why a scheduled publication
 * did not happen (the record changed since the draft began).
 */
export interface ContentDraftsTable {
  id: Generated<number>;
  /** The console's list (shared/admin/content.ts CONTENT_LISTS). */
  list: string;
  record_id: number;
  /** The edited fields, as JSON. */
  fields: string;
  base_version: number;
  user_id: number | null;
  author: string;
  publish_at: Timestamp | null;
  scheduled_by: string | null;
  conflict: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MediaTable {
  id: Generated<number>;
  original_path: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  /** JSON: the generated files by format and width. */
  variants: string;
  user_id: number | null;
  created_at: Timestamp;
}

export interface BotTripsTable {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  /** A DefendedForm (shared/bot-defence.ts). */
  form: string;
  /** A TrapReason (shared/bot-defence.ts). */
  reason: string;
  count: number;
}

export interface TurnedAwayTable {
  id: Generated<number>;
  /** A DefendedForm (shared/bot-defence.ts). */
  form: string;
  /** A TrapReason (shared/bot-defence.ts). */
  reason: string;
  /** How long after its token the post came, in seconds. */
  seconds: number;
  /** The way it came: CONSENT_VIA.website (the API) or CONSENT_VIA.form (without JavaScript). */
  via: string;
  /** The post's validated fields, as JSON: an Inquiry, or `{ emailId }`. */
  fields: string;
  received_at: Timestamp;
}

export interface IssuesTable extends Timestamps {
  id: Generated<number>;
  slug: string;
  title: string;
  summary: string;
  /** Markdown. */
  body: string;
  status: Generated<IssueStatus>;
  version: Generated<number>;
  scheduled_at: Timestamp | null;
  /** When sending began: the issue is published in the archive from then on. */
  started_at: Timestamp | null;
  /** When every active subscriber had a message queued. */
  queued_all_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** Messages queued so far. */
  recipients: Generated<number>;
  /** The last subscription id queued: queuing resumes after it. */
  queue_cursor: Generated<number>;
  /** Messages per second, fixed when the send starts. */
  rate: number | null;
  /** Rendered when the send is asked for, so every copy and the archive show what was previewed. */
  email_html: string | null;
  email_text: string | null;
  web_html: string | null;
  /** A dispatcher's lease on queuing (several instances: one queues at a time). */
  locked_by: string | null;
  locked_until: Timestamp | null;
  user_id: number | null;
  author: string;
  /** Why the send guard paused the send (too many bounces or complaints); null otherwise. */
  paused_reason: string | null;
  /** The guard counts copies finished from this moment: a resumed send starts afresh. */
  guard_since: Timestamp | null;
  /** When the issue was withdrawn from the archive; null while the archive shows it. */
  withdrawn_at: Timestamp | null;
  /** When its archive page was last corrected after the send; null if never. */
  corrected_at: Timestamp | null;
  /** The last correction, withdrawal or return to the archive: when the feed last changed through it. */
  archive_changed_at: Timestamp | null;
  /** Who it goes to, fixed with the send: null for every active subscriber, else a segment as JSON. */
  segment: string | null;
}

/** What a report says of a message: refused for good, refused for now, or marked as spam. */
export type ReportKind = "hard" | "soft" | "complaint";

/** A tag of a subscriber (one row per tag). */
export interface SubscriptionTagsTable {
  subscription_id: number;
  tag: string;
}

/** A link of a sent issue's e-mail, which its copies reach through the site's redirect. */
export interface IssueLinksTable {
  issue_id: number;
  /** 1 for the first link in the e-mail, and so on; a link written twice has one number. */
  position: number;
  url: string;
}

/** How often a link of an issue was followed on a day (UTC): never who followed it. */
export interface IssueLinkClicksTable {
  issue_id: number;
  position: number;
  /** YYYY-MM-DD. */
  day: string;
  clicks: Count;
}

/** A report about a sent message: a bounce or a complaint, however it arrived. */
export interface DeliveryReportsTable {
  id: Generated<number>;
  /** The address the report is about, lower-cased. */
  email: string;
  kind: ReportKind;
  /** The enhanced status (5.1.1) or the SMTP reply code the report gives; null for a complaint. */
  status: string | null;
  /** How it arrived: smtp (the server's answer while sending), mailbox, or webhook:<provider>. */
  source: string;
  /** What identifies the report at its source, so one that arrives twice counts once. */
  source_key: string | null;
  /** The message it is about, when its bounce address named it. */
  outbox_id: number | null;
  message_kind: string | null;
  issue_id: number | null;
  /** The report's own words, for the console. */
  text: string;
  received_at: Timestamp;
}

export type SuppressionReason = "hard-bounce" | "complaint" | "soft-bounces";

/**
 * Why a message from the bounce mailbox was set aside: a report that does
 * not prove it is about a message the site sent to the address it names,
 * or a message that could not be read.
 */
export type SetAsideState = "unverified" | "unreadable";

/** A message from the bounce mailbox that was kept and shown, not acted on (one row per message). */
export interface SetAsideMailTable {
  id: Generated<number>;
  /** The mailbox, its UIDVALIDITY and the message's UID: one row per message. */
  source_key: string;
  state: SetAsideState;
  /** The address an unverified report names, lower-cased; null when it names none, or unreadable. */
  email: string | null;
  /** What an unverified report says; null for an unreadable message. */
  kind: ReportKind | null;
  status: string | null;
  /** Why it was not acted on, in a sentence for the console. */
  why: string;
  /** An unverified report's own words; empty for an unreadable message. */
  text: string;
  received_at: Timestamp;
}

/** A provider's webhook signature taken once: a replay of it is refused until it expires. */
export interface ProviderSignaturesTable {
  /** SHA-256 (hex) of the provider's name and what its signature covers. */
  signed_hash: string;
  /** When its timestamp is too old for the signature to be taken anyway. */
  expires_at: Timestamp;
}

/** An address nothing but the firm's own notifications is sent to (one row per address). */
export interface SuppressionsTable {
  id: Generated<number>;
  email: string;
  reason: SuppressionReason;
  /** The report that decided it. */
  report_id: number | null;
  created_at: Timestamp;
}

/** When an address last got a mail of a kind a stranger can make the site send (one row per pair). */
export interface MailCooldownsTable {
  /** A keyed hash of the lower-cased address: the table holds no address. */
  address_key: string;
  /** The outbox's kind of the mail (welcome, subscription-confirmation). */
  kind: string;
  mailed_at: Timestamp;
}

export interface Database {
  issues: IssuesTable;
  issue_links: IssueLinksTable;
  issue_link_clicks: IssueLinkClicksTable;
  subscriptions: SubscriptionsTable;
  inquiries: InquiriesTable;
  team_members: TeamMembersTable;
  content_items: ContentItemsTable;
  case_studies: CaseStudiesTable;
  site_meta: SiteMetaTable;
  outbox: OutboxTable;
  users: UsersTable;
  sessions: SessionsTable;
  user_tokens: UserTokensTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_throttle: SignInThrottleTable;
  audit_log: AuditLogTable;
  inquiry_notes: InquiryNotesTable;
  subscription_events: SubscriptionEventsTable;
  subscription_tags: SubscriptionTagsTable;
  topics: TopicsTable;
  subscription_topics: SubscriptionTopicsTable;
  erased_subscribers: ErasedSubscribersTable;
  site_facts: SiteFactsTable;
  content_versions: ContentVersionsTable;
  content_drafts: ContentDraftsTable;
  media: MediaTable;
  bot_trips: BotTripsTable;
  turned_away: TurnedAwayTable;
  delivery_reports: DeliveryReportsTable;
  suppressions: SuppressionsTable;
  mail_cooldowns: MailCooldownsTable;
  domain_pacing: DomainPacingTable;
  mail_settings: MailSettingsTable;
  backups: BackupsTable;
  audience_salts: AudienceSaltsTable;
  audience_days: AudienceDaysTable;
  audience_goals: AudienceGoalsTable;
  audience_value_caps: AudienceValueCapsTable;
  subscriber_imports: SubscriberImportsTable;
  audience_digests: AudienceDigestsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  set_aside_mail: SetAsideMailTable;
  provider_signatures: ProviderSignaturesTable;
}

/** An address the firm's own tools are told at (an outgoing webhook). */
export interface WebhookEndpointsTable extends Timestamps {
  id: Generated<number>;
  name: string;
  url: string;
  /** The events it hears, a JSON array of their types. */
  events: string;
  format: "slack" | "json";
  /** 1 when deliveries are made, 0 when the owner turned it off. */
  enabled: number;
  /** The signing secret, whsec_ and base64. */
  secret: string;
}

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

/** One event for one endpoint: queued with the write that caused it, then delivered. */
export interface WebhookDeliveriesTable extends Timestamps {
  id: Generated<number>;
  endpoint_id: number;
  event: string;
  /** The Standard Webhooks message id, the same at every attempt. */
  webhook_id: string;
  /** The body, exactly as signed and sent. */
  payload: string;
  /** The lower-cased e-mail address the body names (an inquirer's, a subscriber's), for erasure. */
  address: string | null;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  /** The latest attempts' answers, newest first, as JSON. */
  answers: Generated<string>;
  delivered_at: Timestamp | null;
}

/** The salt of one UTC day's visitor hashes, shared by every instance; gone after 48 hours. */
export interface AudienceSaltsTable {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  /** 32 random bytes, hex. */
  salt: string;
  created_at: Timestamp;
}

export type AudienceDimension =
  | "total"
  | "page"
  | "entry"
  | "channel"
  | "referrer"
  | "utm_source"
  | "utm_medium"
  | "utm_campaign"
  | "device"
  | "browser"
  | "funnel"
  | "insight"
  /** The UTC hour of a view, "00" to "23". */
  | "hour";

/** A counted figure (PostgreSQL's bigint is read as text). */
type Count = ColumnType<number | string, number | undefined, number>;

/**
 * One day's counts for one value of one dimension ("page" and "/weare",
 * "channel" and "search"); "total" has the value "". Views are page views,
 * visits are visits that began on that day with that value (for "page",
 * visits that saw it), visitors distinct visitor hashes.
 */
export interface AudienceDaysTable {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  dimension: AudienceDimension;
  value: string;
  views: Count;
  visits: Count;
  visitors: Count;
  /** Visits counted here that sent an inquiry or subscribed, each once. */
  conversions: Count;
  /** Inquiries and subscriptions those visits made. */
  inquiries: Count;
  subscriptions: Count;
}

/**
 * How many values of one dimension one UTC day has let into its rows, for
 * every instance: a new value takes room only through an update that finds
 * `admitted` under `max_values`, and the rest are counted as "(other)".
 */
export interface AudienceValueCapsTable {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  dimension: AudienceDimension;
  /** AUDIENCE_VALUES_PER_DAY when the day's row was made. */
  max_values: number;
  admitted: Generated<number>;
  /** 1 once a value of the day was counted as "(other)", for want of room. */
  overflowed: Generated<number>;
}

/** One week's digest of the audience figures, claimed by the instance that sends it. */
export interface AudienceDigestsTable {
  /** The Monday the week starts on, YYYY-MM-DD (UTC). */
  week: string;
  sent_at: Timestamp;
  /** The owners it was queued for. */
  recipients: number;
}

/** A lead's source column: optional on insert, null when unknown. */
type SourceColumn = ColumnType<string | null, string | null | undefined, string | null>;

/** The visit an inquiry or a subscription came from (migration 028). */
export interface LeadSourceColumns {
  source_entry_page: SourceColumn;
  source_referrer: SourceColumn;
  /** search, social, email, direct or other. */
  source_channel: SourceColumn;
  source_utm_source: SourceColumn;
  source_utm_medium: SourceColumn;
  source_utm_campaign: SourceColumn;
}

/**
 * One backup, taken on the schedule or with `npm run backup`: a scheduled
 * one is claimed by inserting its slot (unique), so one instance takes it.
 * `result` is null while it runs.
 */
export interface BackupsTable {
  id: Generated<number>;
  trigger: "scheduled" | "command";
  /** The start of the scheduled period it belongs to; null for the command's. */
  slot: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  result: "ok" | "failed" | null;
  reason: string | null;
  /** The archive's file name. */
  file: string | null;
  /** The archive's size in bytes (PostgreSQL's bigint is read as text). */
  size: ColumnType<number | string | null, number | null, number | null>;
  /** Where it was copied besides the backup folder (an s3:// address). */
  copied_to: string | null;
}

/**
 * The mail settings owners set in the console (one row, id 1, or none);
 * a null column leaves that setting to the environment.
 */
export interface MailSettingsTable {
  id: number;
  sender_name: string | null;
  sender_address: string | null;
  /** A JSON array of one to ten addresses. */
  inquiry_to: string | null;
  newsletter_rate: number | null;
  /** 0 or 1. */
  double_opt_in: number | null;
  welcome_text: string | null;
  version: number;
  updated_at: Timestamp;
}

/**
 * When a receiving domain may get its next bulk copy (one row per domain).
 * A sender takes a domain's slot by moving `next_at` forward in one
 * conditional statement; a deferring server moves it out further.
 */
/** A page the firm counts as a goal in the Audience area (its path, once). */
export interface AudienceGoalsTable {
  id: Generated<number>;
  path: string;
}

/** A topic the subscribe page offers (its name, once). */
export interface TopicsTable {
  id: Generated<number>;
  name: string;
}

/** A topic a subscriber chose when subscribing. */
export interface SubscriptionTopicsTable {
  subscription_id: number;
  topic_id: number;
}

export interface DomainPacingTable {
  domain: string;
  next_at: Timestamp;
  /** Deferrals in a row: each doubles the domain's wait; a delivered copy resets it. */
  backoff_level: number;
  updated_at: Timestamp;
}

export function nowIso(): string {
  return new Date().toISOString();
}
