/**
 * The end of a content form: the save button, a word when there are unsaved
 * changes, and the outcome of the last save. When someone else saved first,
 * the outcome offers their version; the form keeps what was typed meanwhile.
 */
import type { ReactNode } from "react";
import { Notice } from "../../components/Notice.tsx";

export interface SaveOutcome {
  tone: "success" | "error";
  text: string;
  /** Someone else saved first: offer their version. */
  stale?: boolean;
}

interface SaveBarProps {
  label: string;
  saving: boolean;
  /** What the button says while it works: "Saving…" unless the form says otherwise. */
  busyLabel?: string;
  unsaved: boolean;
  outcome: SaveOutcome | null;
  /** Loads what someone else saved, offered when the outcome is stale. */
  onLoadTheirs?(): void;
  /** Said instead of "Unsaved changes" by a form that saves itself (forms/FormKeeping.tsx). */
  status?: ReactNode;
}

export function SaveBar({
  label,
  saving,
  busyLabel = "Saving…",
  unsaved,
  outcome,
  onLoadTheirs,
  status,
}: SaveBarProps) {
  return (
    <>
      <div className="entry-form__actions">
        <button className="button button-primary" type="submit" disabled={saving}>
          {saving ? busyLabel : label}
        </button>
        {status ?? (unsaved ? <span className="entry-form__dirty">Unsaved changes</span> : null)}
      </div>
      {outcome ? (
        <Notice tone={outcome.tone}>
          {outcome.text}
          {outcome.stale && onLoadTheirs ? (
            <>
              {" "}
              <button type="button" className="button button-quiet" onClick={onLoadTheirs}>
                Load their version
              </button>
            </>
          ) : null}
        </Notice>
      ) : null}
    </>
  );
}
