/**
 * An existing record's form, which edits its draft (ADR 044): it opens on
 * the draft's text when there is one, and saves what is typed as the draft
 * a moment after the typing pauses (forms/use-autosave.ts), one save at a
 * time; the site keeps showing the published record. What the server does
 * not have yet is kept in the browser (forms/use-kept-typing.tsx). "Publish"
 * saves what is on the screen first, then publishes the draft; when the
 * record changed since the draft began, the record is loaded again and the
 * draft's state offers to keep the draft over it or discard it.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import type { Entry, EntryFields, ListSpec } from "../../../shared/admin/content.ts";
import type { Draft } from "../../../shared/admin/content-drafts.ts";
import { ApiError, api } from "../../api/client.ts";
import { failureText, showRefusal } from "../../api/refusal.ts";
import { firstRefusal, useAutosave, useOneAtATime } from "../../forms/use-autosave.ts";
import { useKeptTyping } from "../../forms/use-kept-typing.tsx";
import { fieldsOf } from "./EntryFields.tsx";
import type { SaveOutcome } from "./SaveBar.tsx";

interface DraftValues {
  fields: EntryFields;
}

interface EntryDraftOptions {
  spec: ListSpec;
  entry: Entry;
  draft: Draft | null;
  /** The draft the server now holds (null once it is published or discarded). */
  onDraft(draft: Draft | null): void;
  onPublished(entry: Entry): void;
  /** Loads the record and its draft as the server has them (after someone else changed it). */
  onReload(): void;
}

export function useEntryDraft({
  spec,
  entry,
  draft,
  onDraft,
  onPublished,
  onReload,
}: EntryDraftOptions) {
  const schema = useMemo(() => z.object({ fields: spec.schema }), [spec]);
  const valuesOf = useCallback(
    (fields: EntryFields): DraftValues => ({ fields: fieldsOf(spec, fields) }),
    [spec],
  );
  const form = useForm<DraftValues>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(draft?.fields ?? entry.fields),
  });
  const { reset, setError, handleSubmit } = form;
  const kept = useKeptTyping(form, `content:${spec.list}:${entry.id}`);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const [publishing, setPublishing] = useState(false);

  // The version the draft is based on: the draft's own, else the record's.
  const base = useRef(draft?.baseVersion ?? entry.version);
  const lastFailure = useRef("");
  // What the form was last loaded from; a draft this form saved is not loaded again.
  const loadedFrom = useRef(draft ? `draft:${draft.id}` : `version:${entry.version}`);

  useEffect(() => {
    const from = draft ? `draft:${draft.id}` : `version:${entry.version}`;
    base.current = draft?.baseVersion ?? entry.version;
    if (from === loadedFrom.current) return;
    loadedFrom.current = from;
    const values = valuesOf(draft?.fields ?? entry.fields);
    reset(values);
    kept.loaded(values);
  }, [draft, entry, valuesOf, reset, kept.loaded]);

  const writeNow = useCallback(
    async (values: DraftValues): Promise<Draft | null> => {
      try {
        const saved = await api.call("content.saveDraft", {
          params: { list: spec.list, id: entry.id },
          body: { fields: values.fields, baseVersion: base.current },
        });
        loadedFrom.current = `draft:${saved.id}`;
        kept.saved(values);
        reset(values, { keepValues: true });
        onDraft(saved);
        return saved;
      } catch (error) {
        lastFailure.current = failureText(error);
        const fields = spec.fields.map((field) => `fields.${field.name}` as const);
        const message = showRefusal(error, setError, fields);
        if (message !== null) setOutcome({ tone: "error", text: message });
        return null;
      }
    },
    [spec, entry.id, kept.saved, reset, onDraft, setError],
  );

  /** Saves the draft after any save under way, so saves never cross. */
  const write = useOneAtATime(writeNow);

  const autosave = useAutosave(form, {
    incomplete: (values) => firstRefusal(schema, values),
    kept,
    save: async (values) => ((await write(values)) ? null : lastFailure.current),
  });

  /** The draft as on the screen, saving it first when the form has changes; null when that failed. */
  const saveFirst = useCallback(
    (): Promise<Draft | null> =>
      kept.unsaved() || !draft
        ? new Promise((resolve) => {
            void handleSubmit(
              async (values) => resolve(await write(values)),
              () => resolve(null),
            )();
          })
        : Promise.resolve(draft),
    [kept.unsaved, draft, handleSubmit, write],
  );

  /** Bases the draft on the version the site has now: the editor keeps their text over it. */
  const keepMine = useCallback(async () => {
    setOutcome(null);
    base.current = entry.version;
    await write(form.getValues());
  }, [entry.version, write, form]);

  const publish = useCallback(async () => {
    setOutcome(null);
    if (!kept.unsaved() && !draft) {
      setOutcome({ tone: "error", text: "Nothing to publish: the form shows what the site has." });
      return;
    }
    setPublishing(true);
    try {
      const saved = await saveFirst();
      if (!saved) return;
      const published = await api.call("content.publishDraft", {
        params: { list: spec.list, id: entry.id },
      });
      onDraft(null);
      onPublished(published);
      setOutcome({
        tone: "success",
        text: `Published as version ${published.version}. The site shows it now.`,
      });
    } catch (error) {
      // The record moved on since the draft began: the draft's state says so
      // once the record is loaded again, with what can be done about it.
      if (error instanceof ApiError && error.status === 409) onReload();
      else setOutcome({ tone: "error", text: failureText(error) });
    } finally {
      setPublishing(false);
    }
  }, [kept.unsaved, draft, saveFirst, spec.list, entry.id, onDraft, onPublished, onReload]);

  return {
    form,
    publish,
    publishing,
    saveFirst,
    keepMine,
    outcome,
    setOutcome,
    autosave,
    kept,
  };
}

export type EntryDraft = ReturnType<typeof useEntryDraft>;
