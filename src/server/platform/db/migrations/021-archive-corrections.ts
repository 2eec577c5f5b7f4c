import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
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
}
