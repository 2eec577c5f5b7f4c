/** Where the inbox lives in the console, and how it writes a moment and a person. */
import type { Person } from "../../../shared/admin/inquiries.ts";

/** The area's own path (layout/areas.ts), under the console's basename. */
export const INBOX_ROUTE = "/inquiries";

const MOMENT = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

const DAY = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });
const TIME = new Intl.DateTimeFormat("en-GB", { timeStyle: "short" });

export const formatMoment = (iso: string) => MOMENT.format(new Date(iso));

export const dayAndTime = (iso: string) => {
  const moment = new Date(iso);
  return { day: DAY.format(moment), time: TIME.format(moment) };
};

export const personName = (person: Person) => person.name || person.email;
