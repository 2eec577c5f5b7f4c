import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
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
}
