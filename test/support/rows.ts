/** How many rows the tables a write fills hold: compared before and after a request that must store nothing. */
import type { DatabaseHandle } from "../../src/server/db/connection.ts";

export const WRITTEN_TABLES = ["inquiries", "subscriptions", "outbox"] as const;
export type WrittenTable = (typeof WRITTEN_TABLES)[number];

export async function countRows(database: DatabaseHandle): Promise<Record<WrittenTable, number>> {
  const counts = await Promise.all(
    WRITTEN_TABLES.map(async (table) => {
      const { n } = await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return [table, Number(n)] as const;
    }),
  );
  return Object.fromEntries(counts) as Record<WrittenTable, number>;
}
