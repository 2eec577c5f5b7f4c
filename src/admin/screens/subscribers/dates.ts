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

/** "2025-03" as "Mar" (short) or "March 2025" (long): the server's months are UTC. */
export function formatMonth(month: string, style: "short" | "long"): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return (style === "short" ? monthName : monthAndYear).format(date);
}
