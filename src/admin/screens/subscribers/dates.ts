/** Dates as the firm reads them, in the browser's time zone. */
const moment = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });
const monthName = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });
const monthAndYear = new Intl.DateTimeFormat("en-GB", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

export const formatMoment = (iso: string) => moment.format(new Date(iso));
export const formatDay = (iso: string) => day.format(new Date(iso));

const calendarDay = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** A consent's date: a calendar day as given ("2024-06-30"), or a moment from an exported list. */
export function formatConsentDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? calendarDay.format(new Date(`${value}T00:00:00Z`))
    : formatMoment(value);
}

/** "2025-03" as "Mar" (short) or "March 2025" (long): the server's months are UTC. */
export function formatMonth(month: string, style: "short" | "long"): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return (style === "short" ? monthName : monthAndYear).format(date);
}
