/**
 * Compares the load generator's record of acknowledged writes with the
 * database, one by one: every address answered 201 must be a subscription,
 * every inquiry answered 200 must be stored under the id it was given, with
 * the marker its comments carried. Returns what is missing.
 */
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import type { LoadRecord } from "./load-generator.ts";

/** Well under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, index) =>
    items.slice(index * CHUNK, (index + 1) * CHUNK),
  );
}

export interface Losses {
  subscriptions: string[];
  /** Ids missing, or stored with other comments than the marker's. */
  inquiries: number[];
}

export async function acknowledgedButLost(
  { db }: DatabaseHandle,
  record: Pick<LoadRecord, "subscribed" | "inquiries">,
): Promise<Losses> {
  const lostAddresses: string[] = [];
  for (const addresses of chunks(record.subscribed)) {
    const rows = await db
      .selectFrom("subscriptions")
      .select("email")
      .where("email", "in", addresses)
      .execute();
    const stored = new Set(rows.map((row) => row.email));
    lostAddresses.push(...addresses.filter((address) => !stored.has(address)));
  }

  const lostInquiries: number[] = [];
  for (const inquiries of chunks(record.inquiries)) {
    const ids = inquiries.map((inquiry) => inquiry.id);
    const rows = await db
      .selectFrom("inquiries")
      .select(["id", "comments"])
      .where("id", "in", ids)
      .execute();
    const comments = new Map(rows.map((row) => [Number(row.id), row.comments]));
    for (const { id, marker } of inquiries) {
      if (!comments.get(id)?.includes(`[${marker}]`)) lostInquiries.push(id);
    }
  }
  return { subscriptions: lostAddresses, inquiries: lostInquiries };
}
