import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // When an imported subscriber first gave consent, as the list they came
  // from recorded it: shown as the day they subscribed, while
  // subscribed_at keeps the moment the import added them. Null for a
  // subscription asked for here, and cleared when an imported address
  // subscribes anew.
  await db.schema
    .alterTable("subscriptions")
    .addColumn("opted_in_at", columnTypes(engine).timestamp as "text")
    .execute();
  // The imports made before: each subscription still standing on its
  // import takes the consent date its history line kept, or else (an
  // import with double opt-in, which writes no line) the import's own.
  // A day alone (YYYY-MM-DD) is its start in UTC, whatever the server's
  // time zone; a moment is already ISO-8601 with its zone.
  const day = (column: string) => {
    const moment = sql`case when length(${sql.ref(column)}) = 10
      then ${sql.ref(column)} || 'T00:00:00.000Z' else ${sql.ref(column)} end`;
    return engine === "postgres" ? sql`cast(${moment} as timestamptz)` : moment;
  };
  await db
    .updateTable("subscriptions")
    .set({
      opted_in_at: sql`coalesce(
        (select ${day("subscription_events.consent_date")} from subscription_events
          where subscription_events.subscription_id = subscriptions.id
            and subscription_events.import_id = subscriptions.import_id
            and subscription_events.consent_date is not null
          order by subscription_events.id desc limit 1),
        (select ${day("subscriber_imports.consent_date")} from subscriber_imports
          where subscriber_imports.id = subscriptions.import_id))`,
    })
    .where("subscribed_via", "=", "import")
    .where("import_id", "is not", null)
    .execute();
}
