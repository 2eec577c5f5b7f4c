import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // An edit not yet published: at most one per record, which the
  // unique (list, record_id) holds, so an autosave is one upsert. It
  // keeps the version it was based on (a publish from an older one is
  // a conflict), and the time it is to be published at, if any.
  await types
    .withTimestamps(
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
    )
    .execute();
  // The publisher looks for the drafts whose time has come.
  await db.schema
    .createIndex("content_drafts_publish_at")
    .on("content_drafts")
    .column("publish_at")
    .execute();
}
