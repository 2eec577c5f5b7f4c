/**
 * The one set of migrations for both engines. Only the column types that the
 * engines name differently (identity, timestamps) are chosen per engine.
 */
import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  sql,
} from "kysely";
import type { Engine } from "./connection.ts";

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
  };
}

class InlineMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations() {
    return migrations(this.engine);
  }
}

/** Brings the schema up to date; safe to run from several processes at once. */
export async function migrateToLatest(db: AnyDb, engine: Engine): Promise<void> {
  const migrator = new Migrator({ db, provider: new InlineMigrationProvider(engine) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed`, { cause: error });
  }
}
