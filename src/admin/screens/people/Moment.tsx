/**
 * A moment as the reader's calendar shows it, with the exact time for
 * machines; used by the people, audit and account screens.
 */
const MOMENT = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

export function Moment({ iso }: { iso: string }) {
  return <time dateTime={iso}>{MOMENT.format(new Date(iso))}</time>;
}
