import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
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
}
