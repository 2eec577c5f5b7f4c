/** How the Audience area writes its numbers, days and changes. */
import type { Period } from "../../../shared/admin/audience.ts";

const WHOLE = new Intl.NumberFormat("en-GB");
const DECIMAL = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const DAY_YEAR = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const WEEKDAY = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

export const whole = (n: number) => WHOLE.format(n);
export const decimal = (n: number | null) => (n === null ? "–" : DECIMAL.format(n));
export const percent = (rate: number | null) => (rate === null ? "–" : PERCENT.format(rate));

/** A tick of the chart's day axis (seconds since 1970): "21 Nov". */
export const shortDay = (seconds: number) => DAY.format(new Date(seconds * 1000));

const dateOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** A day as the series' table writes it: "Fri 27 Nov 2026". */
export const longDay = (day: string) => WEEKDAY.format(dateOf(day));

/** "21 – 27 Nov 2026", or one day alone. */
export function periodText({ from, to }: Pick<Period, "from" | "to">): string {
  if (from === to) return DAY_YEAR.format(dateOf(from));
  return `${DAY.format(dateOf(from))} – ${DAY_YEAR.format(dateOf(to))}`;
}
