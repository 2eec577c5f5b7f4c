/** A moment as the reader's calendar shows it, with the exact time for machines. */
import { dayAndTime, formatMoment } from "./format.ts";

export function Moment({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatMoment(iso)}</time>;
}

/** The day above the time, for a narrow column. */
export function StackedMoment({ iso }: { iso: string }) {
  const { day, time } = dayAndTime(iso);
  return (
    <time className="moment-stacked" dateTime={iso}>
      <span>{day}</span> <span>{time}</span>
    </time>
  );
}
