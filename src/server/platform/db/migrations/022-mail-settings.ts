import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
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
}
