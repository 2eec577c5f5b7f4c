import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
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
}
