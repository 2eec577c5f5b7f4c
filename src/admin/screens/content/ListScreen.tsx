/**
 * One list as the site shows it, hidden records included: reorder it (drag
 * the handle, or Move up / Move down), hide or show a record, open one, or
 * add one. Each change is saved at once and the site shows it on its next
 * request; a move made from an out-of-date list is refused and the list
 * reloads.
 */
import { arrayMove } from "@dnd-kit/sortable";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { Entry, ListSpec } from "../../../shared/admin/content.ts";
import { ApiError, api, read } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { titleOf, withArticle } from "./format.ts";
import { PreviewLink } from "./PreviewLink.tsx";
import { SortableEntries } from "./SortableEntries.tsx";

interface Outcome {
  tone: "success" | "error";
  text: string;
  /** The list on screen is out of date: offer to load it again. */
  stale?: boolean;
}

export function ListScreen({ spec }: { spec: ListSpec }) {
  const loaded = useResource(read("content.list", { params: { list: spec.list } }));
  const [entries, setEntries] = useState<Entry[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Moves are sent one after the other, each from the order the last one left.
  const orderVersion = useRef(0);
  const queue = useRef(Promise.resolve());

  useEffect(() => {
    if (!loaded.data) return;
    setEntries(loaded.data.entries);
    orderVersion.current = loaded.data.orderVersion;
  }, [loaded.data]);

  const reload = () => {
    setOutcome(null);
    loaded.reload();
  };

  const move = useCallback(
    (from: number, to: number) => {
      const moved = entries[from];
      if (!moved || to < 0 || to >= entries.length || from === to) return;
      const before = entries;
      const after = arrayMove(entries, from, to);
      setEntries(after);
      const name = titleOf(spec, moved.fields);
      queue.current = queue.current.then(async () => {
        try {
          const answer = await api.call("content.reorder", {
            params: { list: spec.list },
            body: { orderVersion: orderVersion.current, ids: after.map((entry) => entry.id) },
          });
          orderVersion.current = answer.orderVersion;
          setOutcome({
            tone: "success",
            text: `Moved “${name}” to position ${to + 1} of ${after.length}. The site shows the new order.`,
          });
        } catch (error) {
          setEntries(before);
          setOutcome({
            tone: "error",
            text: failureText(error),
            stale: error instanceof ApiError && error.status === 409,
          });
        }
      });
    },
    [entries, spec],
  );

  async function setHidden(entry: Entry, hidden: boolean) {
    const name = titleOf(spec, entry.fields);
    try {
      const saved = await api.call("content.setVisibility", {
        params: { list: spec.list, id: entry.id },
        body: { hidden, version: entry.version },
      });
      setEntries((current) => current.map((each) => (each.id === saved.id ? saved : each)));
      setOutcome({
        tone: "success",
        text: hidden
          ? `“${name}” is hidden from the site.`
          : `“${name}” is shown on the site again.`,
      });
    } catch (error) {
      setOutcome({
        tone: "error",
        text: failureText(error),
        stale: error instanceof ApiError && error.status === 409,
      });
    }
  }

  return (
    <section aria-labelledby="content-list-title">
      <div className="content-head">
        <h2 id="content-list-title">{spec.label}</h2>
        <div className="content-head__actions">
          <PreviewLink path={spec.publicPath} />
          <Link className="button button-primary" to={`/content/${spec.list}/new`}>
            Add {withArticle(spec.singular)}
          </Link>
        </div>
      </div>
      <p className="content-help">
        The site shows this list in this order. Drag a handle, or use the arrow buttons, to move{" "}
        {withArticle(spec.singular)}; the change is saved at once.
      </p>
      <div className="content-outcome">
        {outcome ? (
          <Notice tone={outcome.tone}>
            {outcome.text}{" "}
            {outcome.stale ? (
              <button type="button" className="button button-quiet" onClick={reload}>
                Reload the list
              </button>
            ) : null}
          </Notice>
        ) : null}
      </div>
      {loaded.error ? <Notice tone="error">{loaded.error}</Notice> : null}
      {loaded.loading && !loaded.data ? (
        <p className="loading" role="status">
          Loading…
        </p>
      ) : null}
      {loaded.data && entries.length === 0 ? (
        <p className="content-empty">Nothing here yet.</p>
      ) : null}
      {entries.length > 0 ? (
        <SortableEntries
          spec={spec}
          entries={entries}
          drafts={loaded.data?.drafts ?? []}
          onMove={move}
          onSetHidden={setHidden}
        />
      ) : null}
    </section>
  );
}
