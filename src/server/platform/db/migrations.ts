/**
 * The one set of migrations for both engines. Only the column types that the
 * engines name differently (identity, timestamps) are chosen per engine.
 */
import { setTimeout as delay } from "node:timers/promises";
import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  sql,
} from "kysely";
import { Refusal } from "../refusal.ts";
import type { Engine } from "./connection.ts";
import { foldingTable } from "./text-search.ts";

// biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that the typed schema does not know yet
type AnyDb = Kysely<any>;

function columnTypes(engine: Engine) {
  return {
    timestamp: engine === "postgres" ? "timestamptz" : "text",
    withId<T extends string>(table: CreateTableBuilder<T>) {
      return engine === "postgres"
        ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
        : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
    },
  } as const;
}

const notNull = (c: ColumnDefinitionBuilder) => c.notNull();

function migrations(engine: Engine): Record<string, Migration> {
  const types = columnTypes(engine);
  const withTimestamps = <T extends string>(table: CreateTableBuilder<T>) =>
    table
      .addColumn("created_at", types.timestamp as "text", notNull)
      .addColumn("updated_at", types.timestamp as "text", notNull);

  return {
    "001_initial": {
      async up(db: AnyDb) {
        await withTimestamps(
          types
            .withId(db.schema.createTable("subscriptions"))
            .addColumn("email", "text", (c) => c.notNull().unique())
            .addColumn("subscribed_at", types.timestamp as "text", notNull)
            .addColumn("subscribed_via", "text", notNull)
            .addColumn("unsubscribed_at", types.timestamp as "text")
            .addColumn("unsubscribed_via", "text"),
        ).execute();

        await withTimestamps(
          types
            .withId(db.schema.createTable("inquiries"))
            .addColumn("first_name", "text", notNull)
            .addColumn("last_name", "text", notNull)
            .addColumn("company", "text", notNull)
            .addColumn("job_title", "text", notNull)
            .addColumn("email", "text", notNull)
            .addColumn("phone_number", "text", notNull)
            .addColumn("inquiry_type", "text", notNull)
            .addColumn("comments", "text", notNull),
        ).execute();

        await withTimestamps(
          types
            .withId(db.schema.createTable("team_members"))
            .addColumn("position", "integer", notNull)
            .addColumn("fullname", "text", (c) => c.notNull().unique())
            .addColumn("title", "text", notNull)
            .addColumn("image_path", "text", notNull)
            .addColumn("bio", "text", notNull),
        ).execute();

        await withTimestamps(
          types
            .withId(db.schema.createTable("content_items"))
            .addColumn("category", "text", notNull)
            .addColumn("position", "integer", notNull)
            .addColumn("name", "text", notNull)
            .addColumn("description", "text", notNull)
            .addColumn("image_path", "text")
            .addUniqueConstraint("content_items_category_name_unique", ["category", "name"]),
        ).execute();
        await db.schema
          .createIndex("content_items_category_position")
          .on("content_items")
          .columns(["category", "position"])
          .execute();

        await withTimestamps(
          db.schema
            .createTable("site_meta")
            .addColumn("key", "text", (c) => c.primaryKey())
            .addColumn("value", "text", notNull),
        ).execute();
      },
    },
    "002_outbox": {
      async up(db: AnyDb) {
        await withTimestamps(
          types
            .withId(db.schema.createTable("outbox"))
            .addColumn("kind", "text", notNull)
            .addColumn("message", "text", notNull)
            .addColumn("status", "text", (c) =>
              c.notNull().check(sql`status in ('pending', 'sent', 'failed')`),
            )
            .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
            .addColumn("next_attempt_at", types.timestamp as "text", notNull)
            .addColumn("locked_until", types.timestamp as "text")
            .addColumn("locked_by", "text")
            .addColumn("last_error", "text")
            .addColumn("sent_at", types.timestamp as "text"),
        ).execute();
        await db.schema
          .createIndex("outbox_due")
          .on("outbox")
          .columns(["status", "next_attempt_at"])
          .execute();
      },
    },
    "003_case_studies": {
      async up(db: AnyDb) {
        await withTimestamps(
          types
            .withId(db.schema.createTable("case_studies"))
            .addColumn("slug", "text", (c) => c.notNull().unique())
            .addColumn("position", "integer", notNull)
            .addColumn("title", "text", notNull)
            .addColumn("summary", "text", notNull)
            .addColumn("opportunity", "text", notNull)
            .addColumn("solution", "text", notNull)
            .addColumn("work", "text", notNull),
        ).execute();
      },
    },
    "004_console": {
      async up(db: AnyDb) {
        const now = types.timestamp as "text";
        await withTimestamps(
          types
            .withId(db.schema.createTable("users"))
            .addColumn("email", "text", (c) => c.notNull().unique())
            .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
            .addColumn("role", "text", (c) =>
              c.notNull().check(sql`role in ('owner', 'editor', 'viewer')`),
            )
            .addColumn("password_hash", "text")
            .addColumn("totp_secret", "text")
            .addColumn("totp_enabled_at", now),
        ).execute();

        await db.schema
          .createTable("sessions")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("user_id", "integer", (c) =>
            c.notNull().references("users.id").onDelete("cascade"),
          )
          .addColumn("created_at", now, notNull)
          .addColumn("last_seen_at", now, notNull)
          .addColumn("expires_at", now, notNull)
          .addColumn("ip", "text", notNull)
          .addColumn("user_agent", "text", notNull)
          .execute();
        await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();

        await db.schema
          .createTable("user_tokens")
          .addColumn("token_hash", "text", (c) => c.primaryKey())
          .addColumn("user_id", "integer", (c) =>
            c.notNull().references("users.id").onDelete("cascade"),
          )
          .addColumn("purpose", "text", (c) =>
            c.notNull().check(sql`purpose in ('invite', 'reset')`),
          )
          .addColumn("created_at", now, notNull)
          .addColumn("expires_at", now, notNull)
          .addColumn("used_at", now)
          .execute();

        await types
          .withId(db.schema.createTable("recovery_codes"))
          .addColumn("user_id", "integer", (c) =>
            c.notNull().references("users.id").onDelete("cascade"),
          )
          .addColumn("code_hash", "text", notNull)
          .addColumn("used_at", now)
          .addUniqueConstraint("recovery_codes_user_code", ["user_id", "code_hash"])
          .execute();

        await db.schema
          .createTable("sign_in_throttle")
          .addColumn("key", "text", (c) => c.primaryKey())
          .addColumn("failures", "integer", notNull)
          .addColumn("locked_until", now)
          .addColumn("updated_at", now, notNull)
          .execute();

        await types
          .withId(db.schema.createTable("audit_log"))
          .addColumn("at", now, notNull)
          .addColumn("user_id", "integer")
          .addColumn("actor", "text", notNull)
          .addColumn("action", "text", notNull)
          .addColumn("target", "text")
          .addColumn("ip", "text")
          .addColumn("detail", "text")
          .execute();
        await db.schema.createIndex("audit_log_at").on("audit_log").column("at").execute();

        await db.schema
          .alterTable("inquiries")
          .addColumn("status", "text", (c) =>
            c
              .notNull()
              .defaultTo("new")
              .check(sql`status in ('new', 'in-progress', 'answered', 'closed', 'spam')`),
          )
          .execute();
        await db.schema
          .alterTable("inquiries")
          .addColumn("assignee_id", "integer", (c) => c.references("users.id").onDelete("set null"))
          .execute();
        await db.schema
          .createIndex("inquiries_status_created")
          .on("inquiries")
          .columns(["status", "created_at"])
          .execute();
        await types
          .withId(db.schema.createTable("inquiry_notes"))
          .addColumn("inquiry_id", "integer", (c) =>
            c.notNull().references("inquiries.id").onDelete("cascade"),
          )
          .addColumn("author_id", "integer", (c) => c.references("users.id").onDelete("set null"))
          .addColumn("author", "text", notNull)
          .addColumn("body", "text", notNull)
          .addColumn("created_at", now, notNull)
          .execute();

        await types
          .withId(db.schema.createTable("subscription_events"))
          .addColumn("subscription_id", "integer", (c) =>
            c.notNull().references("subscriptions.id").onDelete("cascade"),
          )
          .addColumn("event", "text", (c) =>
            c.notNull().check(sql`event in ('subscribed', 'unsubscribed')`),
          )
          .addColumn("via", "text", notNull)
          .addColumn("at", now, notNull)
          .execute();
        await db.schema
          .createIndex("subscription_events_subscription")
          .on("subscription_events")
          .column("subscription_id")
          .execute();
        // The history so far, as far as the rows tell it.
        await sql`insert into subscription_events (subscription_id, event, via, at)
          select id, 'subscribed', subscribed_via, subscribed_at from subscriptions`.execute(db);
        await sql`insert into subscription_events (subscription_id, event, via, at)
          select id, 'unsubscribed', unsubscribed_via, unsubscribed_at from subscriptions
          where unsubscribed_at is not null`.execute(db);
        await db.schema
          .createTable("erased_subscribers")
          .addColumn("email_hash", "text", (c) => c.primaryKey())
          .addColumn("erased_at", now, notNull)
          .execute();

        for (const table of ["team_members", "content_items", "case_studies"]) {
          await db.schema
            .alterTable(table)
            .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
            .execute();
          await db.schema
            .alterTable(table)
            .addColumn("hidden", "integer", (c) =>
              c.notNull().defaultTo(0).check(sql`hidden in (0, 1)`),
            )
            .execute();
        }
        await withTimestamps(
          db.schema
            .createTable("site_facts")
            .addColumn("key", "text", (c) => c.primaryKey())
            .addColumn("value", "text", notNull)
            .addColumn("version", "integer", (c) => c.notNull().defaultTo(1)),
        ).execute();
        await types
          .withId(db.schema.createTable("content_versions"))
          .addColumn("entity", "text", notNull)
          .addColumn("entity_key", "text", notNull)
          .addColumn("version", "integer", notNull)
          .addColumn("data", "text", notNull)
          .addColumn("user_id", "integer")
          .addColumn("author", "text", notNull)
          .addColumn("created_at", now, notNull)
          .addUniqueConstraint("content_versions_entity_version", [
            "entity",
            "entity_key",
            "version",
          ])
          .execute();

        await types
          .withId(db.schema.createTable("media"))
          .addColumn("original_path", "text", notNull)
          .addColumn("content_type", "text", notNull)
          .addColumn("width", "integer", notNull)
          .addColumn("height", "integer", notNull)
          .addColumn("bytes", "integer", notNull)
          .addColumn("variants", "text", notNull)
          .addColumn("user_id", "integer")
          .addColumn("created_at", now, notNull)
          .execute();
      },
    },
    "005_outbox_priority": {
      async up(db: AnyDb) {
        await db.schema
          .alterTable("outbox")
          .addColumn("priority", "text", (c) =>
            c
              .notNull()
              .defaultTo("transactional")
              .check(sql`priority in ('transactional', 'bulk')`),
          )
          .execute();
        // The claim asks for one status and one priority, due rows first due
        // first: this index hands them over in that order, so the engine
        // neither sorts the backlog nor reads past rows that are not due.
        await db.schema
          .createIndex("outbox_claim")
          .on("outbox")
          .columns(["status", "priority", "next_attempt_at", "id"])
          .execute();
        // It served the claim before priorities; left in place, SQLite's planner
        // could still pick it and sort the backlog.
        await db.schema.dropIndex("outbox_due").execute();
      },
    },
    "006_bot_trips": {
      async up(db: AnyDb) {
        // Posts the forms' traps turned away (ADR 017), counted per day, form
        // and reason: one row each, bumped by one upsert, so the table stays
        // small however many scripts come.
        await db.schema
          .createTable("bot_trips")
          .addColumn("day", "text", notNull)
          .addColumn("form", "text", notNull)
          .addColumn("reason", "text", notNull)
          .addColumn("count", "integer", notNull)
          .addPrimaryKeyConstraint("bot_trips_key", ["day", "form", "reason"])
          .execute();
      },
    },
    "007_newsletter": {
      async up(db: AnyDb) {
        // Double opt-in (NEWSLETTER_DOUBLE_OPT_IN): every address subscribed
        // before it existed counts as confirmed when it subscribed.
        await db.schema
          .alterTable("subscriptions")
          .addColumn("confirmed_at", types.timestamp as "text")
          .execute();
        await db
          .updateTable("subscriptions")
          .set({ confirmed_at: sql.ref("subscribed_at") })
          .execute();

        await withTimestamps(
          types
            .withId(db.schema.createTable("campaigns"))
            .addColumn("slug", "text", (c) => c.notNull().unique())
            .addColumn("title", "text", notNull)
            .addColumn("summary", "text", notNull)
            .addColumn("body", "text", notNull)
            .addColumn("status", "text", (c) =>
              c
                .notNull()
                .defaultTo("draft")
                .check(
                  sql`status in ('draft', 'scheduled', 'queuing', 'sending', 'paused', 'sent', 'cancelled')`,
                ),
            )
            .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
            .addColumn("scheduled_at", types.timestamp as "text")
            .addColumn("started_at", types.timestamp as "text")
            .addColumn("queued_all_at", types.timestamp as "text")
            .addColumn("finished_at", types.timestamp as "text")
            .addColumn("recipients", "integer", (c) => c.notNull().defaultTo(0))
            .addColumn("queue_cursor", "integer", (c) => c.notNull().defaultTo(0))
            .addColumn("rate", "integer")
            .addColumn("email_html", "text")
            .addColumn("email_text", "text")
            .addColumn("web_html", "text")
            .addColumn("locked_by", "text")
            .addColumn("locked_until", types.timestamp as "text")
            .addColumn("user_id", "integer")
            .addColumn("author", "text", notNull),
        ).execute();
        await db.schema
          .createIndex("campaigns_status")
          .on("campaigns")
          .columns(["status", "scheduled_at"])
          .execute();

        await db.schema.alterTable("outbox").addColumn("campaign_id", "integer").execute();
        await db.schema.alterTable("outbox").addColumn("subscription_id", "integer").execute();
        // At most one copy of an issue per subscription, whoever queues it and
        // however often queuing restarts: the schema decides, not a read.
        await db.schema
          .createIndex("outbox_campaign_recipient")
          .on("outbox")
          .columns(["campaign_id", "subscription_id"])
          .unique()
          .where(sql.ref("campaign_id"), "is not", null)
          .execute();
        // The console's progress counts, read from the index alone.
        await db.schema
          .createIndex("outbox_campaign_status")
          .on("outbox")
          .columns(["campaign_id", "status"])
          .where(sql.ref("campaign_id"), "is not", null)
          .execute();
      },
    },
    "008_sign_in_keys": {
      async up(db: AnyDb) {
        // The counts were kept under keys named otherwise; at most an hour's
        // locks are lost by starting them afresh.
        await db.deleteFrom("sign_in_throttle").execute();
        await db.schema.alterTable("sign_in_throttle").addColumn("account", "text").execute();
        await db.schema
          .createIndex("sign_in_throttle_account")
          .on("sign_in_throttle")
          .column("account")
          .execute();
      },
    },
    "009_totp_last_step": {
      async up(db: AnyDb) {
        // The last TOTP step that opened the account: a code of that step or
        // an earlier one is refused, so a code seen once cannot be replayed.
        await db.schema.alterTable("users").addColumn("totp_last_step", "integer").execute();
      },
    },
    "010_case_study_outcomes": {
      async up(db: AnyDb) {
        // The one result a case study is remembered by, which Home shows:
        // a figure ("38%") and what it measures. Empty for a study without one.
        for (const column of ["outcome_figure", "outcome_label"]) {
          await db.schema
            .alterTable("case_studies")
            .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
            .execute();
        }
      },
    },
    "011_issue_names": {
      async up(db: AnyDb) {
        // An edition of Insight is an issue everywhere: the table, the outbox's
        // reference, its indexes and the audit entries once said "campaign".
        await db.schema.dropIndex("outbox_campaign_recipient").execute();
        await db.schema.dropIndex("outbox_campaign_status").execute();
        await db.schema.dropIndex("campaigns_status").execute();
        await db.schema.alterTable("campaigns").renameTo("issues").execute();
        await db.schema.alterTable("outbox").renameColumn("campaign_id", "issue_id").execute();
        await db.schema
          .createIndex("issues_status")
          .on("issues")
          .columns(["status", "scheduled_at"])
          .execute();
        await db.schema
          .createIndex("outbox_issue_recipient")
          .on("outbox")
          .columns(["issue_id", "subscription_id"])
          .unique()
          .where(sql.ref("issue_id"), "is not", null)
          .execute();
        await db.schema
          .createIndex("outbox_issue_status")
          .on("outbox")
          .columns(["issue_id", "status"])
          .where(sql.ref("issue_id"), "is not", null)
          .execute();
        const renamed = (column: "action" | "target", from: string, to: string) =>
          db
            .updateTable("audit_log")
            .set({ [column]: sql`${to} || substr(${sql.ref(column)}, ${from.length + 1})` })
            .where(column, "like", `${from}%`)
            .execute();
        await renamed("action", "campaign-", "issue-");
        await renamed("target", "campaign:", "issue:");
      },
    },
    "012_delivery_reports": {
      async up(db: AnyDb) {
        await types
          .withId(db.schema.createTable("delivery_reports"))
          .addColumn("email", "text", notNull)
          .addColumn("kind", "text", notNull)
          .addColumn("status", "text")
          .addColumn("source", "text", notNull)
          .addColumn("source_key", "text", (c) => c.unique())
          .addColumn("outbox_id", "integer")
          .addColumn("message_kind", "text")
          .addColumn("issue_id", "integer")
          .addColumn("text", "text", notNull)
          .addColumn("received_at", types.timestamp as "text", notNull)
          .execute();
        // Soft bounces are counted per address over the last days.
        await db.schema
          .createIndex("delivery_reports_email")
          .on("delivery_reports")
          .columns(["email", "kind", "received_at"])
          .execute();
        await db.schema
          .createIndex("delivery_reports_issue")
          .on("delivery_reports")
          .columns(["issue_id", "kind"])
          .where(sql.ref("issue_id"), "is not", null)
          .execute();
        await types
          .withId(db.schema.createTable("suppressions"))
          .addColumn("email", "text", (c) => c.notNull().unique())
          .addColumn("reason", "text", notNull)
          .addColumn("report_id", "integer")
          .addColumn("created_at", types.timestamp as "text", notNull)
          .execute();
      },
    },
    "014_send_guard": {
      async up(db: AnyDb) {
        await db.schema.alterTable("issues").addColumn("paused_reason", "text").execute();
        await db.schema
          .alterTable("issues")
          .addColumn("guard_since", types.timestamp as "text")
          .execute();
      },
    },
    "015_mail_cooldowns": {
      async up(db: AnyDb) {
        // When an address last got a mail of a kind a stranger can make the
        // site send. The primary key lets one upsert decide whether the next
        // may go, however many requests ask at once. The address is kept as
        // a keyed hash only: the table is about addresses, not of them.
        await db.schema
          .createTable("mail_cooldowns")
          .addColumn("address_key", "text", notNull)
          .addColumn("kind", "text", notNull)
          .addColumn("mailed_at", types.timestamp as "text", notNull)
          .addPrimaryKeyConstraint("mail_cooldowns_key", ["address_key", "kind"])
          .execute();
      },
    },
    "016_inquiry_notifications": {
      async up(db: AnyDb) {
        // An inquiry names its notification to the firm, so the inbox can
        // tell whether the firm was told. Inquiries from before have none.
        await db.schema
          .alterTable("inquiries")
          .addColumn("notification_outbox_id", "integer", (c) =>
            c.references("outbox.id").onDelete("set null"),
          )
          .execute();
        await db.schema
          .alterTable("inquiries")
          .addColumn("notification_alarmed_at", types.timestamp as "text")
          .execute();
        await db.schema
          .createIndex("inquiries_notification")
          .on("inquiries")
          .column("notification_outbox_id")
          .unique()
          .execute();
        // The inbox asks, for each inquiry shown, whether a hard bounce came
        // back for its notification.
        await db.schema
          .createIndex("delivery_reports_outbox")
          .on("delivery_reports")
          .columns(["outbox_id", "kind"])
          .where(sql.ref("outbox_id"), "is not", null)
          .execute();
      },
    },
    "017_turned_away": {
      async up(db: AnyDb) {
        // A post a trap took for a script's, kept as it came so the firm can
        // release it should a person have sent it; the daily purge removes it
        // after TURNED_AWAY_RETENTION_DAYS (features/turned-away).
        await types
          .withId(db.schema.createTable("turned_away"))
          .addColumn("form", "text", notNull)
          .addColumn("reason", "text", notNull)
          .addColumn("seconds", "real", notNull)
          .addColumn("via", "text", notNull)
          .addColumn("fields", "text", notNull)
          .addColumn("received_at", types.timestamp as "text", notNull)
          .execute();
        await db.schema
          .createIndex("turned_away_received")
          .on("turned_away")
          .column("received_at")
          .execute();
      },
    },
    "018_domain_pacing": {
      async up(db: AnyDb) {
        // Bulk mail is paced per receiving domain. The claim asks, for each
        // due row it reads through outbox_claim, whether the row's domain is
        // waiting: a lookup by domain_pacing's primary key.
        await db.schema.alterTable("outbox").addColumn("domain", "text").execute();
        // One row per domain: a sender takes a domain's next slot, and a
        // deferring server pushes it out, each with one statement on it.
        await db.schema
          .createTable("domain_pacing")
          .addColumn("domain", "text", (c) => c.primaryKey())
          .addColumn("next_at", types.timestamp as "text", notNull)
          .addColumn("backoff_level", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("updated_at", types.timestamp as "text", notNull)
          .execute();
        // The sender sleeps until the first domain's wait ends.
        await db.schema
          .createIndex("domain_pacing_next_at")
          .on("domain_pacing")
          .column("next_at")
          .execute();
      },
    },
    "019_notification_failure_seen": {
      async up(db: AnyDb) {
        // When someone in the console first opened an inquiry whose
        // notification had failed: until then the console keeps a banner up.
        await db.schema
          .alterTable("inquiries")
          .addColumn("notification_failure_seen_at", types.timestamp as "text")
          .execute();
      },
    },
    "020_fold_text": {
      async up(db: AnyDb) {
        // The console's searches compare folded text: lower case, accents
        // aside. SQLite's connection brings the function itself; here
        // PostgreSQL gets the same fold as one translate over the Latin
        // letters with marks (the table is only letters, no quote).
        if (engine !== "postgres") return;
        const { from, to } = foldingTable();
        await sql`
          create or replace function fold_text(value text) returns text
          language sql immutable parallel safe
          as ${sql.lit(`select translate(lower(value), '${from}', '${to}')`)}
        `.execute(db);
      },
    },
    "021_archive_corrections": {
      async up(db: AnyDb) {
        // A sent issue's archive page may be corrected or withdrawn after the
        // mail went out. When it left the archive (null while it is in it),
        // when its page was last corrected (the feed's and the sitemap's date
        // of its entry), and when the archive last changed through it (a
        // correction, a withdrawal, its return: the feed's own date).
        for (const column of ["withdrawn_at", "corrected_at", "archive_changed_at"]) {
          await db.schema
            .alterTable("issues")
            .addColumn(column, types.timestamp as "text")
            .execute();
        }
      },
    },
    "022_mail_settings": {
      async up(db: AnyDb) {
        // The firm's mail settings as owners set them in the console: one
        // row at most, each column null while the environment decides.
        // Where inquiries go is a JSON array of addresses.
        await db.schema
          .createTable("mail_settings")
          .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn("sender_name", "text")
          .addColumn("sender_address", "text")
          .addColumn("inquiry_to", "text")
          .addColumn("newsletter_rate", "integer", (c) => c.check(sql`newsletter_rate >= 1`))
          .addColumn("double_opt_in", "integer", (c) => c.check(sql`double_opt_in in (0, 1)`))
          .addColumn("welcome_text", "text")
          .addColumn("version", "integer", (c) => c.notNull().check(sql`version >= 1`))
          .addColumn("updated_at", types.timestamp as "text", notNull)
          .addCheckConstraint(
            "mail_settings_sender_whole",
            sql`(sender_name is null) = (sender_address is null)`,
          )
          .execute();
      },
    },
    "023_content_drafts": {
      async up(db: AnyDb) {
        // An edit not yet published: at most one per record, which the
        // unique (list, record_id) holds, so an autosave is one upsert. It
        // keeps the version it was based on (a publish from an older one is
        // a conflict), and the time it is to be published at, if any.
        await withTimestamps(
          types
            .withId(db.schema.createTable("content_drafts"))
            .addColumn("list", "text", notNull)
            .addColumn("record_id", "integer", notNull)
            .addColumn("fields", "text", notNull)
            .addColumn("base_version", "integer", notNull)
            .addColumn("user_id", "integer")
            .addColumn("author", "text", notNull)
            .addColumn("publish_at", types.timestamp as "text")
            .addColumn("scheduled_by", "text")
            .addColumn("conflict", "text")
            .addUniqueConstraint("content_drafts_record", ["list", "record_id"]),
        ).execute();
        // The publisher looks for the drafts whose time has come.
        await db.schema
          .createIndex("content_drafts_publish_at")
          .on("content_drafts")
          .column("publish_at")
          .execute();
      },
    },
    "024_menu_lines": {
      async up(db: AnyDb) {
        // The line the site's menu shows under an entry, written by the firm.
        // Empty: the menu shows the start of the entry's description. A site
        // seeded before keeps the lines its menu had, which were in the code.
        await db.schema
          .alterTable("content_items")
          .addColumn("menu_line", "text", (c) => c.notNull().defaultTo(""))
          .execute();
        for (const [category, lines] of Object.entries(MENU_LINES_BEFORE_024)) {
          for (const [name, line] of Object.entries(lines)) {
            await db
              .updateTable("content_items")
              .set({ menu_line: line })
              .where("category", "=", category)
              .where("name", "=", name)
              .execute();
          }
        }
      },
    },
    "025_backups": {
      async up(db: AnyDb) {
        // One row per backup, from the console's schedule or the CLI: when
        // it began and ended, how it went and where the archive went. A
        // scheduled one names its slot, and the unique slot is what lets
        // one instance of several take it.
        await types
          .withId(db.schema.createTable("backups"))
          .addColumn("trigger", "text", (c) =>
            c.notNull().check(sql`trigger in ('scheduled', 'command')`),
          )
          .addColumn("slot", "text", (c) => c.unique())
          .addColumn("started_at", types.timestamp as "text", notNull)
          .addColumn("finished_at", types.timestamp as "text")
          .addColumn("result", "text", (c) => c.check(sql`result in ('ok', 'failed')`))
          .addColumn("reason", "text")
          .addColumn("file", "text")
          .addColumn("size", "bigint")
          .addColumn("copied_to", "text")
          .execute();
        await db.schema
          .createIndex("backups_started_at")
          .on("backups")
          .column("started_at")
          .execute();
      },
    },
    "026_outbox_body_removed": {
      async up(db: AnyDb) {
        // A sent message's subject and bodies go after OUTBOX_SENT_RETENTION_DAYS;
        // its row stays (the send's figures, a late bounce's trace, an
        // inquiry's notification), marked so the daily purge passes it by.
        await db.schema
          .alterTable("outbox")
          .addColumn("body_removed_at", types.timestamp as "text")
          .execute();
        // Only the firm's own mail holds a body: an Insight copy holds its Message-ID.
        await db.schema
          .createIndex("outbox_body_kept")
          .on("outbox")
          .column("sent_at")
          .where(sql.ref("body_removed_at"), "is", null)
          .where(sql.ref("issue_id"), "is", null)
          .execute();
      },
    },
    "027_audience": {
      async up(db: AnyDb) {
        // The day's random salt a visitor's keyed hash is made with, one per
        // UTC day for every instance: the first to insert it wins. Deleted
        // after 48 hours, so no visitor can be followed from one day to the next.
        await db.schema
          .createTable("audience_salts")
          .addColumn("day", "text", (c) => c.primaryKey())
          .addColumn("salt", "text", notNull)
          .addColumn("created_at", types.timestamp as "text", notNull)
          .execute();
        // The counted figures, one row per UTC day, dimension and value:
        // no address, user agent or hash is kept. Each instance adds its
        // buffered counts with one upsert per row.
        await db.schema
          .createTable("audience_days")
          .addColumn("day", "text", notNull)
          .addColumn("dimension", "text", (c) =>
            c
              .notNull()
              .check(
                sql`dimension in ('total', 'page', 'entry', 'channel', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'device', 'browser', 'funnel', 'insight')`,
              ),
          )
          .addColumn("value", "text", notNull)
          .addColumn("views", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("visits", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("visitors", "bigint", (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint("audience_days_key", ["day", "dimension", "value"])
          .execute();
      },
    },
    "028_lead_sources": {
      async up(db: AnyDb) {
        // Where the visit that brought an inquiry or a subscription came
        // from: its entry page, the referring domain and its channel, and
        // its UTM tags. Null when the form sent none (before this, or a
        // visitor who came straight to the form).
        for (const table of ["inquiries", "subscriptions"]) {
          for (const column of [
            "source_entry_page",
            "source_referrer",
            "source_channel",
            "source_utm_source",
            "source_utm_medium",
            "source_utm_campaign",
          ]) {
            await db.schema.alterTable(table).addColumn(column, "text").execute();
          }
        }
      },
    },
    "029_subscriber_imports": {
      async up(db: AnyDb) {
        // One row per list brought along: who imported which file when, the
        // consent statement they gave for every address in it, and what came
        // of it. It holds no address: erasing one leaves this row as it is.
        await types
          .withId(db.schema.createTable("subscriber_imports"))
          .addColumn("file_name", "text", notNull)
          .addColumn("format", "text", notNull)
          .addColumn("consent_source", "text", notNull)
          .addColumn("consent_date", "text", notNull)
          .addColumn("double_opt_in", "integer", notNull)
          .addColumn("rows_read", "integer", notNull)
          .addColumn("added", "integer", notNull)
          .addColumn("already_on_list", "integer", notNull)
          .addColumn("refused", "integer", notNull)
          .addColumn("imported_by", "integer", (c) => c.references("users.id").onDelete("set null"))
          .addColumn("created_at", types.timestamp as "text", notNull)
          .execute();
        // The import an address came in by, while its row lasts.
        await db.schema
          .alterTable("subscriptions")
          .addColumn("import_id", "integer", (c) => c.references("subscriber_imports.id"))
          .execute();
        // A consent line of an import keeps the statement the importer gave
        // (where and when the person agreed), so the history answers alone.
        for (const column of ["consent_source", "consent_date"]) {
          await db.schema.alterTable("subscription_events").addColumn(column, "text").execute();
        }
        await db.schema
          .alterTable("subscription_events")
          .addColumn("import_id", "integer", (c) => c.references("subscriber_imports.id"))
          .execute();
      },
    },
    "030_webhooks": {
      async up(db: AnyDb) {
        // The addresses the firm's own tools are told at (outgoing
        // webhooks): which events each hears, its body format, and the
        // secret its deliveries are signed with (shown to owners, so kept).
        await withTimestamps(
          types
            .withId(db.schema.createTable("webhook_endpoints"))
            .addColumn("name", "text", notNull)
            .addColumn("url", "text", notNull)
            .addColumn("events", "text", notNull)
            .addColumn("format", "text", (c) => c.notNull().check(sql`format in ('slack', 'json')`))
            .addColumn("enabled", "integer", notNull)
            .addColumn("secret", "text", notNull),
        ).execute();
        // One row per event and endpoint, queued in the transaction of the
        // write that caused the event and delivered by a worker, as the
        // outbox is: claimed with a lease, retried with back-off, its
        // latest answers kept for the console's log.
        await withTimestamps(
          types
            .withId(db.schema.createTable("webhook_deliveries"))
            .addColumn("endpoint_id", "integer", (c) =>
              c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
            )
            .addColumn("event", "text", notNull)
            .addColumn("webhook_id", "text", (c) => c.notNull().unique())
            .addColumn("payload", "text", notNull)
            // The lower-cased e-mail address the body names, so erasing that
            // person reaches the deliveries about them too.
            .addColumn("address", "text")
            .addColumn("status", "text", (c) =>
              c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
            )
            .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
            .addColumn("next_attempt_at", types.timestamp as "text", notNull)
            .addColumn("locked_by", "text")
            .addColumn("locked_until", types.timestamp as "text")
            .addColumn("answers", "text", (c) => c.notNull().defaultTo("[]"))
            .addColumn("delivered_at", types.timestamp as "text"),
        ).execute();
        await db.schema
          .createIndex("webhook_deliveries_claim")
          .on("webhook_deliveries")
          .columns(["status", "next_attempt_at"])
          .execute();
        await db.schema
          .createIndex("webhook_deliveries_endpoint")
          .on("webhook_deliveries")
          .columns(["endpoint_id", "id"])
          .execute();
        await db.schema
          .createIndex("webhook_deliveries_address")
          .on("webhook_deliveries")
          .column("address")
          .execute();
        await db.schema
          .createIndex("webhook_deliveries_created")
          .on("webhook_deliveries")
          .column("created_at")
          .execute();
      },
    },
    "031_audience_figures": {
      async up(db: AnyDb) {
        // The Audience area reads one dimension over a range of days: the
        // key starts with the day, so it would walk every dimension of
        // those days. This index walks the one dimension's days alone and
        // holds the counts, so the figures are read from it without the table.
        if (engine === "postgres") {
          await sql`create index audience_days_by_dimension on audience_days (dimension, day, value) include (views, visits, visitors)`.execute(
            db,
          );
        } else {
          await db.schema
            .createIndex("audience_days_by_dimension")
            .on("audience_days")
            .columns(["dimension", "day", "value", "views", "visits", "visitors"])
            .execute();
        }
        // The leads of a range of days, for the area's conversions: read by
        // when they were made, not walked whole.
        await db.schema
          .createIndex("inquiries_created")
          .on("inquiries")
          .column("created_at")
          .execute();
        await db.schema
          .createIndex("subscriptions_subscribed")
          .on("subscriptions")
          .column("subscribed_at")
          .execute();
        // The weekly digest's weeks (the Monday they start on): the instance
        // whose insert goes through sends that week's, in the same transaction.
        await db.schema
          .createTable("audience_digests")
          .addColumn("week", "text", (c) => c.primaryKey())
          .addColumn("sent_at", types.timestamp as "text", notNull)
          .addColumn("recipients", "integer", notNull)
          .execute();
      },
    },
    "032_report_proof": {
      async up(db: AnyDb) {
        // What came to the bounce mailbox and was not acted on: a report
        // that does not prove it is about a message the site sent to the
        // address it names, or a message that could not be read. The
        // source key (the mailbox, its UIDVALIDITY and the message's UID)
        // keeps one row per message, however many instances read it.
        await types
          .withId(db.schema.createTable("set_aside_mail"))
          .addColumn("source_key", "text", (c) => c.notNull().unique())
          .addColumn("state", "text", notNull)
          .addColumn("email", "text")
          .addColumn("kind", "text")
          .addColumn("status", "text")
          .addColumn("why", "text", notNull)
          .addColumn("text", "text", notNull)
          .addColumn("received_at", types.timestamp as "text", notNull)
          .execute();
        await db.schema
          .createIndex("set_aside_mail_received")
          .on("set_aside_mail")
          .column("received_at")
          .execute();
        await db.schema
          .createIndex("set_aside_mail_email")
          .on("set_aside_mail")
          .column("email")
          .where(sql.ref("email"), "is not", null)
          .execute();
        // Each provider signature taken, by a hash of what it signs, until
        // its timestamp is too old to be taken anyway: the primary key
        // refuses the second use, on however many instances.
        await db.schema
          .createTable("provider_signatures")
          .addColumn("signed_hash", "text", (c) => c.primaryKey())
          .addColumn("expires_at", types.timestamp as "text", notNull)
          .execute();
        await db.schema
          .createIndex("provider_signatures_expiry")
          .on("provider_signatures")
          .column("expires_at")
          .execute();
        // A report that quotes the Message-ID of the message it is about
        // finds its outbox row through this index. The expression is the
        // one messageIdOf (platform/outbox/queue.ts) asks with.
        await db.schema
          .createIndex("outbox_message_id")
          .on("outbox")
          .expression(
            engine === "postgres"
              ? sql`(message::jsonb ->> 'messageId')`
              : sql`json_extract(message, '$.messageId')`,
          )
          .execute();
      },
    },
    "033_audience_value_caps": {
      async up(db: AnyDb) {
        // How many values of one dimension a UTC day has let in, against the
        // most it may (AUDIENCE_VALUES_PER_DAY as it was when the day's row
        // was made), for every instance at once: a value is let in only by
        // an update that finds room, so no restart or second instance gets
        // more. `overflowed` is 1 once a value was counted as "(other)".
        await db.schema
          .createTable("audience_value_caps")
          .addColumn("day", "text", notNull)
          .addColumn("dimension", "text", notNull)
          .addColumn("max_values", "integer", (c) => c.notNull().check(sql`max_values > 0`))
          .addColumn("admitted", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("overflowed", "integer", (c) =>
            c.notNull().defaultTo(0).check(sql`overflowed in (0, 1)`),
          )
          .addPrimaryKeyConstraint("audience_value_caps_key", ["day", "dimension"])
          .addCheckConstraint(
            "audience_value_caps_admitted",
            sql`admitted >= 0 and admitted <= max_values`,
          )
          .execute();
        // The days counted before: each dimension's values as they stand,
        // under the 2,000 a process kept to then (more where restarts let
        // more in), and overflowed where "(other)" was counted.
        await sql`
          insert into audience_value_caps (day, dimension, max_values, admitted, overflowed)
          select day, dimension,
            case when count(case when value <> '(other)' then 1 end) > 2000
              then count(case when value <> '(other)' then 1 end) else 2000 end,
            count(case when value <> '(other)' then 1 end),
            max(case when value = '(other)' then 1 else 0 end)
          from audience_days
          group by day, dimension
        `.execute(db);
      },
    },
    "034_webhook_deliveries_by_endpoint": {
      async up(db: AnyDb) {
        // The webhook worker claims each endpoint's first due delivery on
        // its own, so that one receiver's backlog or silence never holds
        // another's: this index reads it without walking the endpoint's
        // delivered history.
        await db.schema
          .createIndex("webhook_deliveries_endpoint_due")
          .on("webhook_deliveries")
          .columns(["endpoint_id", "status", "next_attempt_at"])
          .execute();
      },
    },
  };
}

/** The menu's lines as the code held them until migration 024: frozen here, never edited. */
const MENU_LINES_BEFORE_024: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  capabilities: {
    "App Development": "Web and mobile apps your people actually use.",
    Automation: "Repetitive work handed over to software.",
    "Cloud Infrastructure": "Platforms that scale, stay up and cost less.",
    "Data Management": "One trusted source for every number.",
    "Digital Strategy": "Where technology pays off, and in what order.",
    "Machine Learning": "Models that learn from the data you already have.",
    "Predictive Analytics": "Next quarter's numbers, with a range you can plan on.",
    "Tech Stack Management": "Fewer tools, each one earning its place.",
  },
  industries: {
    Automotive: "Dealer, fleet and supply-chain data put to work.",
    Construction: "Bids, schedules and sites on one set of numbers.",
    "E-Commerce": "Targeting, pricing and demand, learned from orders.",
    Finance: "Cash, credit and receivables forecasts finance trusts.",
    Manufacturing: "Maintenance and quality predicted, not reacted to.",
  },
  techneeds: {
    "Third Party Software Integration": "Your tools passing data to each other, reliably.",
    "In House Development": "Software built around the way you work.",
  },
};

class InlineMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations() {
    return migrations(this.engine);
  }
}

async function currentSchema(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("PostgreSQL has no current schema: check the search_path");
  return schema;
}

/** PostgreSQL's "schema does not exist", "relation does not exist" and "column does not exist". */
const DROPPED_UNDER_US = new Set(["3F000", "42P01", "42703"]);

/**
 * Kysely looks for its own tables with a catalogue query over every schema
 * of the database (has_schema_privilege on each, then each table's columns).
 * Another site dropping its schema, or a table or column in it, at that
 * moment fails the query for a schema, table or column that is not ours.
 * Only an error outside every migration is taken for this. The next attempt
 * waits a little longer each time, so a drop still under way can commit
 * first. (The tests met all three: each now has a database of its own,
 * test/support/engines.ts.)
 */
const SCHEMA_RACE_ATTEMPTS = 8;
const SCHEMA_RACE_PAUSE_MS = 25;

function isSchemaRace(error: unknown): boolean {
  return DROPPED_UNDER_US.has(String((error as { code?: unknown } | undefined)?.code));
}

/** The names of the migrations this code knows, oldest first: the last is its schema version. */
export function knownMigrations(): string[] {
  // The names are the same for both engines; only column types differ.
  return Object.keys(migrations("sqlite")).sort();
}

/** Where the database stands against the migrations this version of the code knows. */
export interface SchemaStatus {
  /** Known migrations already applied, oldest first, with when. */
  applied: { name: string; executedAt: Date }[];
  /** Known migrations not applied yet, in the order they will run. */
  pending: string[];
  /** Applied migrations this version does not know: a newer version migrated the database. */
  unknown: string[];
}

/** The database was migrated by a newer version of the site than this one. */
export class NewerSchemaError extends Refusal {
  constructor(readonly unknown: readonly string[]) {
    super(
      `This database was migrated by a newer version of the site (${unknown.join(", ")}, ` +
        "which this version does not know), so this version will not use it. " +
        "Run the newer version, or go back by restoring the backup taken before the upgrade.",
    );
  }
}

/** Reads the schema's state without changing anything. */
export async function schemaStatus(db: AnyDb, engine: Engine): Promise<SchemaStatus> {
  const migrator = await migratorFor(db, engine);
  const known = await migrator.getMigrations();
  const knownNames = new Set(known.map((migration) => migration.name));
  const recorded = (await hasMigrationTable(db, engine))
    ? await db.selectFrom(MIGRATION_TABLE).select("name").orderBy("name").execute()
    : [];
  return {
    applied: known.flatMap(({ name, executedAt }) => (executedAt ? [{ name, executedAt }] : [])),
    pending: known.filter((migration) => !migration.executedAt).map(({ name }) => name),
    unknown: recorded.map(({ name }) => String(name)).filter((name) => !knownNames.has(name)),
  };
}

/**
 * Brings the schema up to date; safe to run from several processes at once.
 * Refuses a database a newer version has migrated: its newer tables and
 * columns would be half used, and going back is a restore, not a guess.
 */
export async function migrateToLatest(db: AnyDb, engine: Engine): Promise<void> {
  const { unknown } = await schemaStatus(db, engine);
  if (unknown.length > 0) throw new NewerSchemaError(unknown);
  return migrate(db, engine, (migrator) => migrator.migrateToLatest());
}

/**
 * Brings the schema up to the named migration and no further: a test of a
 * later migration starts from a database as the one before it left it.
 */
export function migrateUpTo(db: AnyDb, engine: Engine, name: string): Promise<void> {
  return migrate(db, engine, (migrator) => migrator.migrateTo(name));
}

/** Kysely's own record of the migrations it ran. */
const MIGRATION_TABLE = "kysely_migration";

/** Whether Kysely's record exists here (in the current schema on PostgreSQL). */
async function hasMigrationTable(db: AnyDb, engine: Engine): Promise<boolean> {
  const { rows } =
    engine === "postgres"
      ? await sql<{ found: unknown }>`select to_regclass(${MIGRATION_TABLE}) as found`.execute(db)
      : await sql<{
          found: unknown;
        }>`select name as found from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(
          db,
        );
  return rows[0]?.found != null;
}

async function migratorFor(db: AnyDb, engine: Engine): Promise<Migrator> {
  return new Migrator({
    db,
    provider: new InlineMigrationProvider(engine),
    migrationTableName: MIGRATION_TABLE,
    // Kysely looks for its own tables in every schema unless told which: a
    // second site (or test) in another schema of the same database would
    // otherwise make it skip creating them in this one.
    ...(engine === "postgres" ? { migrationTableSchema: await currentSchema(db) } : {}),
  });
}

async function migrate(
  db: AnyDb,
  engine: Engine,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  const migrator = await migratorFor(db, engine);
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await run(migrator);
    const failed = results?.find((r) => r.status === "Error");
    if (!error && !failed) return;
    if (!failed && isSchemaRace(error) && attempt < SCHEMA_RACE_ATTEMPTS) {
      await delay(SCHEMA_RACE_PAUSE_MS * attempt);
      continue;
    }
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed`, { cause: error });
  }
}
