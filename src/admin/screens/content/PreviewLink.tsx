/** The public page that shows what is being edited, in a new tab. */
export function PreviewLink({ path }: { path: string }) {
  return (
    <a className="button" href={path} target="_blank" rel="noreferrer">
      Preview on the site<span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
