import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  const now = types.timestamp as "text";
  await types
    .withTimestamps(
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
    )
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
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
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('invite', 'reset')`))
    .addColumn("created_at", now, notNull)
    .addColumn("expires_at", now, notNull)
    .addColumn("used_at", now)
    .execute();

  await types
    .withId(db.schema.createTable("recovery_codes"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
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
      .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0).check(sql`hidden in (0, 1)`))
      .execute();
  }
  await types
    .withTimestamps(
      db.schema
        .createTable("site_facts")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", notNull)
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1)),
    )
    .execute();
  await types
    .withId(db.schema.createTable("content_versions"))
    .addColumn("entity", "text", notNull)
    .addColumn("entity_key", "text", notNull)
    .addColumn("version", "integer", notNull)
    .addColumn("data", "text", notNull)
    .addColumn("user_id", "integer")
    .addColumn("author", "text", notNull)
    .addColumn("created_at", now, notNull)
    .addUniqueConstraint("content_versions_entity_version", ["entity", "entity_key", "version"])
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
}
