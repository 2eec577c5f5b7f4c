/**
 * When an issue was published, as readers write dates ("March 12, 2026"), in
 * UTC: the server's render and the browser's must read the same, or the page
 * would not hydrate.
 */
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

export function IssueDate({ publishedAt, className }: { publishedAt: string; className?: string }) {
  return (
    <time className={className} dateTime={publishedAt}>
      {DATE_FORMAT.format(new Date(publishedAt))}
    </time>
  );
}
