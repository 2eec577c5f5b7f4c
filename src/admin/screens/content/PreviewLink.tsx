/** The public page that shows what is being edited, in a new tab. */
export function PreviewLink({
  path,
  label = "Preview on the site",
}: {
  path: string;
  /** What the link says; a record with drafts says "View on the site", beside "Preview draft". */
  label?: string | undefined;
}) {
  return (
    <a className="button" href={path} target="_blank" rel="noreferrer">
      {label}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
