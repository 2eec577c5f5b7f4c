/** What the server hands the pages' loaders, over a fresh SQLite database seeded from content/. */

import { SiteContent, seedOnce } from "../../src/server/features/content/index.ts";
import { openDatabase } from "../../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../../src/server/platform/db/migrations.ts";
import type { PageContext } from "../../src/shared/page-context.ts";

export async function seededPageContext(origin = "http://localhost"): Promise<PageContext> {
  const database = openDatabase({ sqliteFile: ":memory:" });
  await migrateToLatest(database.db, database.engine);
  await seedOnce(database.db, "content");
  return { content: new SiteContent(database), origin };
}
