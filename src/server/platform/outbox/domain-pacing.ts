/**
 * Pacing of bulk mail per receiving domain (table domain_pacing, ADR 037).
 * A domain's row says when it may get its next bulk copy. Every decision is
 * one statement on that row, so senders in several instances never read a
 * domain's state and then act on what another has changed meanwhile:
 *
 * - a sender takes the domain's next slot (moves `next_at` one interval on)
 *   only when `next_at` has passed, and sends only when it got it;
 * - a deferring server (a 4xx) pushes `next_at` out exponentially;
 * - a delivered copy resets the back-off.
 *
 * The claim (claimQuery in queue.ts) skips bulk copies whose domain waits.
 */
import { type Kysely, sql } from "kysely";
import type { Engine } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";

export interface DomainPacingPolicy {
  /** Copies a second to a domain not named in `rates`; unset, the issue's rate. */
  ratePerSecond?: number;
  /** Copies a second for named domains (lower-case). */
  rates: Readonly<Record<string, number>>;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/**
 * Deferrals in a row beyond which the wait grows no more: by then it is at
 * its maximum with any sensible base, and 2^level stays a small integer.
 */
const MAX_BACKOFF_LEVEL = 30;

/**
 * The least time between two bulk copies to `domain`: its own rate, never
 * faster than the issue's (`issueSpacingMs`, 1/rate), the ceiling.
 */
export function domainIntervalMs(
  policy: DomainPacingPolicy,
  domain: string,
  issueSpacingMs = 0,
): number {
  const rate = policy.rates[domain] ?? policy.ratePerSecond;
  return rate === undefined ? issueSpacingMs : Math.max(issueSpacingMs, 1000 / rate);
}

/**
 * Takes the domain's next slot when its wait has passed: the domain then
 * waits `intervalMs` from `now` for this sender's copy, and its back-off
 * level is returned (above 0 after deferrals). Undefined when another copy
 * (in this or another instance) took it first, or the domain is backing
 * off. The conditional upsert decides it in one step.
 */
export async function takeDomainSlot(
  db: Kysely<Database>,
  domain: string,
  intervalMs: number,
  now = new Date(),
): Promise<number | undefined> {
  const nowText = now.toISOString();
  const nextAt = new Date(now.getTime() + intervalMs).toISOString();
  const taken = await db
    .insertInto("domain_pacing")
    .values({ domain, next_at: nextAt, backoff_level: 0, updated_at: nowText })
    .onConflict((conflict) =>
      conflict
        .column("domain")
        .doUpdateSet({ next_at: nextAt, updated_at: nowText })
        .where("domain_pacing.next_at", "<=", nowText),
    )
    .returning("backoff_level")
    .executeTakeFirst();
  return taken?.backoff_level;
}

/** `now` plus `delayMs` (an SQL expression) as the engine stores a timestamp. */
function later(engine: Engine, now: Date, delayMs: ReturnType<typeof sql>) {
  return engine === "postgres"
    ? sql<string>`cast(${now.toISOString()} as timestamptz) + (${delayMs}) * interval '1 millisecond'`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', (${now.getTime()} + ${delayMs}) / 1000.0, 'unixepoch')`;
}

/**
 * Backs the domain off after a deferral: it waits base × 2^level (capped),
 * and its level rises. Returns when the domain may be tried again, the time
 * the deferred copy is due anew.
 */
export async function backOffDomain(
  db: Kysely<Database>,
  engine: Engine,
  domain: string,
  { backoffBaseMs, backoffMaxMs }: Pick<DomainPacingPolicy, "backoffBaseMs" | "backoffMaxMs">,
  now = new Date(),
): Promise<Date> {
  const least = engine === "postgres" ? sql.raw("least") : sql.raw("min");
  const delayMs = sql`${least}(cast(${backoffBaseMs} as bigint) * (1 << domain_pacing.backoff_level), ${backoffMaxMs})`;
  const row = await db
    .insertInto("domain_pacing")
    .values({
      domain,
      next_at: new Date(now.getTime() + Math.min(backoffBaseMs, backoffMaxMs)).toISOString(),
      backoff_level: 1,
      updated_at: now.toISOString(),
    })
    .onConflict((conflict) =>
      conflict.column("domain").doUpdateSet({
        next_at: later(engine, now, delayMs),
        backoff_level: sql<number>`${least}(domain_pacing.backoff_level + 1, ${MAX_BACKOFF_LEVEL})`,
        updated_at: now.toISOString(),
      }),
    )
    .returning("next_at")
    .executeTakeFirstOrThrow();
  return new Date(row.next_at);
}

/**
 * A delivered copy shows the domain takes mail again: its next deferral
 * starts at the base wait. Called only when the slot showed a back-off, so
 * a domain that never defers costs no second write per copy.
 */
export async function resetDomainBackoff(db: Kysely<Database>, domain: string): Promise<void> {
  await db
    .updateTable("domain_pacing")
    .set({ backoff_level: 0 })
    .where("domain", "=", domain)
    .where("backoff_level", ">", 0)
    .execute();
}
