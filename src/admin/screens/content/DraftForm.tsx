/**
 * An existing record's form: what is typed is its draft, saved as it is
 * typed, which the site does not show until it is published (ADR 044).
 * Above the fields, the draft's state: who saved it and when, a conflict
 * with what was published since, its preview, its schedule, discarding it.
 * Below them, "Publish", and whether the site shows the record at all.
 */

import type { Entry, ListSpec } from "../../../shared/admin/content.ts";
import type { Draft } from "../../../shared/admin/content-drafts.ts";
import { AutosaveStatus, RestoredNotice } from "../../forms/FormKeeping.tsx";
import { DraftState } from "./DraftState.tsx";
import { EntryFields } from "./EntryFields.tsx";
import { SaveBar } from "./SaveBar.tsx";
import { useEntryDraft } from "./use-entry-draft.ts";
import { Visibility } from "./Visibility.tsx";

interface DraftFormProps {
  spec: ListSpec;
  entry: Entry;
  draft: Draft | null;
  onDraft(draft: Draft | null): void;
  /** The record as the server now has it (published, hidden or shown). */
  onWritten(entry: Entry): void;
  onReload(): void;
}

export function DraftForm({ spec, entry, draft, onDraft, onWritten, onReload }: DraftFormProps) {
  const editing = useEntryDraft({
    spec,
    entry,
    draft,
    onDraft,
    onPublished: onWritten,
    onReload,
  });
  const { form, kept, outcome, publishing } = editing;
  const {
    register,
    setValue,
    watch,
    formState: { errors },
  } = form;

  return (
    <form
      className="panel entry-form"
      onSubmit={(event) => {
        event.preventDefault();
        void editing.publish();
      }}
      noValidate
    >
      {kept.restoredAt ? <RestoredNotice at={kept.restoredAt} onDiscard={kept.discard} /> : null}
      <DraftState spec={spec} entry={entry} draft={draft} editing={editing} onDraft={onDraft} />
      <EntryFields
        spec={spec}
        register={register}
        setValue={setValue}
        errors={errors}
        imagePath={watch("fields.imagePath") ?? ""}
      />
      <SaveBar
        label="Publish"
        saving={publishing}
        busyLabel="Publishing…"
        unsaved={false}
        outcome={outcome}
        status={<AutosaveStatus state={editing.autosave} saved="Draft saved" />}
      />
      <Visibility spec={spec} entry={entry} onChanged={onWritten} />
      {kept.leaveDialog}
    </form>
  );
}
