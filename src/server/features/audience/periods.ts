/**
 * The days a range covers, cut in UTC days as the figures are counted, and
 * the period of equal length just before it, which each figure is shown beside.
 */
import type { Period, RangeQuery } from "../../../shared/admin/audience.ts";
import { daysBetween } from "../../../shared/admin/audience.ts";

const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) an instant falls in. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return dayOf(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS);
}

/** The first instant of a day, as the timestamps of inquiries and subscriptions are compared. */
export const startOf = (day: string) => `${day}T00:00:00.000Z`;

const periodOf = (from: string, to: string): Period => ({ from, to, days: daysBetween(from, to) });

/** How many days each named range ends with, today included. */
const NAMED_DAYS = { today: 1, "7d": 7, "30d": 30, "12m": 365 } as const;

/** The range asked for, as of `now` (epoch ms): a named one ends today. */
export function periodFor(query: RangeQuery, now: number): Period {
  if (query.range === "custom" && query.from && query.to) return periodOf(query.from, query.to);
  const days = query.range === "custom" ? NAMED_DAYS["7d"] : NAMED_DAYS[query.range];
  const today = dayOf(now);
  return periodOf(addDays(today, 1 - days), today);
}

/** The period of the same length that ends the day before `period` begins. */
export function previousOf(period: Period): Period {
  const to = addDays(period.from, -1);
  return periodOf(addDays(to, 1 - period.days), to);
}

/** Every day of a period, oldest first. */
export function daysOf(period: Period): string[] {
  return Array.from({ length: period.days }, (_, index) => addDays(period.from, index));
}
