/**
 * Previous and next links under a paged list. They keep the list's query (its
 * search and filter) and change only its page, so paging never loses a search.
 */
import { Link, useSearchParams } from "react-router";

interface PagerProps {
  /** The navigation's name: "Pages of subscribers". */
  label: string;
  page: number;
  pageSize: number;
  total: number;
}

export function Pager({ label, page, pageSize, total }: PagerProps) {
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;

  const linkTo = (to: number) => {
    const query = new URLSearchParams(params);
    if (to > 1) query.set("page", String(to));
    else query.delete("page");
    return { search: query.toString() };
  };

  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? <Link to={linkTo(page - 1)}>Previous page</Link> : <span />}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <Link to={linkTo(page + 1)}>Next page</Link> : <span />}
    </nav>
  );
}
