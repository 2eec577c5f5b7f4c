/** What the server hands the pages' loaders, over a fresh SQLite database seeded from content/. */
import { SiteContent } from "../../src/server/content/plugin.ts";
import { openDatabase } from "../../src/server/db/connection.ts";
import { migrateToLatest } from "../../src/server/db/migrations.ts";
import { seedOnce } from "../../src/server/db/seed.ts";
import type { PageContext } from "../../src/shared/page-context.ts";

export async function seededPageContext(origin = "http://localhost"): Promise<PageContext> {
  const database = openDatabase({ sqliteFile: ":memory:" });
  await migrateToLatest(database.db, database.engine);
  await seedOnce(database.db, "content");
  return { content: new SiteContent(database), origin };
}
