/**
 * A send time as the editor picks it: a `datetime-local` value, which is the
 * browser's own time zone with no zone written, read as such and sent as an
 * ISO instant. A time already past is refused in the form, as the server
 * refuses it.
 */
import { z } from "zod";
import { NEWSLETTER_TEXTS } from "../../../shared/admin/newsletter.ts";

/** The instant a `datetime-local` value names in the browser's time zone, or NaN. */
const instantOf = (local: string) => new Date(local).getTime();

export const scheduleSchema = z.object({
  at: z
    .string()
    .min(1, "Choose the day and time to send it.")
    .refine((local) => !Number.isNaN(instantOf(local)), "Choose the day and time to send it.")
    .refine((local) => instantOf(local) > Date.now(), NEWSLETTER_TEXTS.inThePast),
});
export type ScheduleValues = z.infer<typeof scheduleSchema>;

export const isoInstant = (local: string) => new Date(local).toISOString();

/** Now as a `datetime-local` value (to the minute), the earliest the picker offers. */
export function localNow(): string {
  const now = new Date();
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The browser's time zone, named for the person picking a time ("Europe/London"). */
export const timeZoneName = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
