import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
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
}
