/**
 * Where a record's draft stands: none yet (the site shows the record as
 * published), or who saved it and when, a conflict with a version published
 * since, and what can be done with it: preview it on the real page,
 * schedule or unschedule it, discard it.
 */
import { useId, useState } from "react";
import type { Entry, ListSpec } from "../../../shared/admin/content.ts";
import { DRAFT_TEXTS, type Draft } from "../../../shared/admin/content-drafts.ts";
import { api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { AlertDialog } from "../../components/AlertDialog.tsx";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";
import type { EntryDraft } from "./use-entry-draft.ts";

const MOMENT = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const moment = (iso: string) => MOMENT.format(new Date(iso));

interface DraftStateProps {
  spec: ListSpec;
  entry: Entry;
  draft: Draft | null;
  editing: EntryDraft;
  onDraft(draft: Draft | null): void;
}

export function DraftState({ spec, entry, draft, editing, onDraft }: DraftStateProps) {
  const titleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const params = { list: spec.list, id: entry.id };

  if (!draft) {
    return (
      <p className="draft-state draft-state--none">
        The site shows version {entry.version}. What you type here is kept as a draft, saved as you
        type; the site changes only when you publish it.
      </p>
    );
  }

  /** Runs a step on the draft, showing why it failed beside the draft's state. */
  const step = (run: () => Promise<void>) => async () => {
    setFailure(null);
    try {
      await run();
    } catch (error) {
      setFailure(failureText(error));
    }
  };

  const preview = step(async () => {
    if (!(await editing.saveFirst())) return;
    const link = await api.call("content.previewDraft", { params });
    window.open(link.url, "_blank", "noopener");
  });

  const discard = step(async () => {
    setConfirming(false);
    await api.call("content.discardDraft", { params });
    onDraft(null);
  });

  const behind = draft.baseVersion !== entry.version;

  return (
    <section className="draft-state" aria-labelledby={titleId}>
      <h3 id={titleId}>Draft</h3>
      <p>
        Saved by {draft.author} on {moment(draft.updatedAt)}. The site still shows version{" "}
        {entry.version}.
      </p>
      {behind ? (
        <Notice tone="error">
          {DRAFT_TEXTS.conflict(spec.singular, draft.baseVersion, entry.version)}{" "}
          <button type="button" className="button button-quiet" onClick={editing.keepMine}>
            Keep my draft
          </button>
        </Notice>
      ) : null}
      {draft.conflict && !behind ? <Notice tone="error">{draft.conflict}</Notice> : null}
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div className="draft-state__actions">
        <button type="button" className="button" onClick={preview}>
          Preview draft<span className="visually-hidden"> (opens in a new tab)</span>
        </button>
        <button type="button" className="button button-quiet" onClick={() => setConfirming(true)}>
          Discard draft
        </button>
      </div>
      <Schedule spec={spec} entry={entry} draft={draft} onDraft={onDraft} />
      <AlertDialog
        open={confirming}
        title="Discard this draft?"
        text={<p>What it says is lost. The site keeps showing version {entry.version}.</p>}
        onClose={() => setConfirming(false)}
      >
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            Keep the draft
          </button>
          <button type="button" className="button button-danger" onClick={discard}>
            Discard draft
          </button>
        </div>
      </AlertDialog>
    </section>
  );
}

interface ScheduleProps {
  spec: ListSpec;
  entry: Entry;
  draft: Draft;
  onDraft(draft: Draft | null): void;
}

/** The draft's time to be published at: set, shown, cancelled. */
function Schedule({ spec, entry, draft, onDraft }: ScheduleProps) {
  const [at, setAt] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const params = { list: spec.list, id: entry.id };

  async function schedule() {
    setError(undefined);
    const time = new Date(at);
    if (!at || Number.isNaN(time.getTime())) {
      setError("Enter a date and time.");
      return;
    }
    try {
      onDraft(
        await api.call("content.scheduleDraft", {
          params,
          body: { publishAt: time.toISOString() },
        }),
      );
      setAt("");
    } catch (failure) {
      setError(failureText(failure));
    }
  }

  async function unschedule() {
    setError(undefined);
    try {
      onDraft(await api.call("content.unscheduleDraft", { params }));
    } catch (failure) {
      setError(failureText(failure));
    }
  }

  if (draft.publishAt) {
    return (
      <div className="draft-schedule">
        <p role="status">
          Scheduled to publish on {moment(draft.publishAt)}
          {draft.scheduledBy ? ` (by ${draft.scheduledBy})` : ""}.
        </p>
        <button type="button" className="button button-quiet" onClick={unschedule}>
          Cancel schedule
        </button>
        {error ? <Notice tone="error">{error}</Notice> : null}
      </div>
    );
  }
  return (
    <div className="draft-schedule">
      <Field
        label="Publish at"
        hint="Your own time. The draft is published then as it stands."
        type="datetime-local"
        value={at}
        error={error}
        onChange={(event) => setAt(event.target.value)}
      />
      <button type="button" className="button" onClick={schedule}>
        Schedule
      </button>
    </div>
  );
}
