/** How the Audience area writes its numbers, days and changes. */
import type { Period } from "../../../shared/admin/audience.ts";

const WHOLE = new Intl.NumberFormat("en-GB");
const DECIMAL = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });
/** A rate under 1 %: two significant digits, so 0.022 % does not read as 0 %. */
const SMALL_PERCENT = new Intl.NumberFormat("en-GB", {
  style: "percent",
  maximumSignificantDigits: 2,
});
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
export function percent(rate: number | null): string {
  if (rate === null) return "–";
  return rate > 0 && rate < 0.01 ? SMALL_PERCENT.format(rate) : PERCENT.format(rate);
}

/** A tick of the chart's hour axis (seconds since 1970): "14:00", in UTC. */
export const shortHour = (seconds: number) =>
  `${new Date(seconds * 1000).toISOString().slice(11, 13)}:00`;

/** A UTC hour ("14") as the hours' table writes it: "14:00–15:00". */
export const hourSpan = (hour: string) =>
  `${hour}:00–${String((Number(hour) + 1) % 24).padStart(2, "0")}:00`;

/** A tick of the chart's day axis (seconds since 1970): "21 Nov". */
export const shortDay = (seconds: number) => DAY.format(new Date(seconds * 1000));

const dateOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** A day as the series' table writes it: "Fri 27 Nov 2026". */
export const longDay = (day: string) => WEEKDAY.format(dateOf(day));

/** A day in a sentence: "27 Nov 2026". */
export const dayText = (day: string) => DAY_YEAR.format(dateOf(day));

/** "21 – 27 Nov 2026", or one day alone. */
export function periodText({ from, to }: Pick<Period, "from" | "to">): string {
  if (from === to) return dayText(from);
  const first = from.slice(0, 4) === to.slice(0, 4) ? DAY : DAY_YEAR;
  return `${first.format(dateOf(from))} – ${DAY_YEAR.format(dateOf(to))}`;
}
