/**
 * How a send is faring with the receiving servers: among its most recent
 * finished copies, how many bounced for good and how many were reported as
 * spam. What the send guard judges by.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

export interface SendHealth {
  /** Finished copies in the window (sent, or refused for good). */
  copies: number;
  hardBounces: number;
  complaints: number;
}

export interface SendWindow {
  issueId: number;
  /** The most recent finished copies counted. */
  size: number;
  /** Only copies finished from then on count; null counts from the start. */
  since: string | null;
}

export async function sendHealth(
  db: Kysely<Database>,
  { issueId, size, since }: SendWindow,
): Promise<SendHealth> {
  let finished = db
    .selectFrom("outbox")
    .select("id")
    .where("issue_id", "=", issueId)
    .where("status", "in", ["sent", "failed"]);
  if (since) finished = finished.where("updated_at", ">=", since);
  const window = finished.orderBy("id", "desc").limit(size);

  const [copies, reports] = await Promise.all([
    db
      .selectFrom(window.as("window"))
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("delivery_reports")
      .select((eb) => [
        eb.fn
          .count<string | number>("outbox_id")
          .distinct()
          .filterWhere("kind", "=", "hard")
          .as("hard"),
        eb.fn
          .count<string | number>("outbox_id")
          .distinct()
          .filterWhere("kind", "=", "complaint")
          .as("complaints"),
      ])
      .where("outbox_id", "in", window)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    copies: Number(copies.count),
    hardBounces: Number(reports.hard),
    complaints: Number(reports.complaints),
  };
}
