/**
 * A draft's form, checked by the schema the server checks it with. A save
 * sends the version the form was loaded from; if someone saved since, the
 * server refuses it (409) and the form keeps everything typed, with the
 * choice to load their version. The preview, the test and the send save
 * first when there are unsaved changes (`saveFirst`), so they always show
 * and send what is on the screen.
 *
 * Nothing typed is lost: a draft is saved as the editor types (a new issue
 * once "Create draft" made it one), and what the server does not have yet is
 * kept in the browser and put back when the form opens again
 * (forms/use-kept-typing.tsx).
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type IssueDetail,
  type IssueDraft,
  issueDraftSchema,
} from "../../../shared/admin/newsletter.ts";
import { ApiError, api } from "../../api/client.ts";
import { failureText, showRefusal } from "../../api/refusal.ts";
import { firstRefusal, useAutosave, useOneAtATime } from "../../forms/use-autosave.ts";
import { useKeptTyping } from "../../forms/use-kept-typing.tsx";
import type { SaveOutcome } from "../content/SaveBar.tsx";

const FIELDS = issueDraftSchema.keyof().options;

const EMPTY: IssueDraft = { title: "", slug: "", summary: "", body: "" };

function valuesOf(issue: IssueDetail | null): IssueDraft {
  if (!issue) return EMPTY;
  const { title, slug, summary, body } = issue;
  return { title, slug, summary, body };
}

export function useDraftForm(issue: IssueDetail | null, onSaved: (saved: IssueDetail) => void) {
  const form = useForm<IssueDraft>({
    resolver: zodResolver(issueDraftSchema),
    defaultValues: valuesOf(issue),
  });
  const { reset, setError, handleSubmit } = form;
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const kept = useKeptTyping(form, issue ? `issue:${issue.id}` : "issue:new");
  // The version the form's saves are based on: the loaded one, then each one it saved.
  const base = useRef(issue?.version ?? 0);
  // Why the last save failed, in the words the form shows.
  const lastFailure = useRef("");
  // Someone else saved since this form's version: saving again cannot succeed
  // until the editor loads their version or saves over it by hand.
  const stale = useRef<string | null>(null);

  // Someone else's version, loaded on request, replaces the form; the
  // form's own saves leave what was typed during them in place.
  useEffect(() => {
    if (!issue || issue.version === base.current) return;
    base.current = issue.version;
    stale.current = null;
    reset(valuesOf(issue));
    kept.loaded(valuesOf(issue));
  }, [issue, reset, kept.loaded]);

  const writeNow = useCallback(
    async (values: IssueDraft, announce: boolean): Promise<IssueDetail | null> => {
      setOutcome(null);
      try {
        const saved = issue
          ? await api.call("newsletter.save", {
              params: { id: issue.id },
              body: { ...values, version: base.current },
            })
          : await api.call("newsletter.create", { body: values });
        base.current = saved.version;
        stale.current = null;
        kept.saved(values);
        // The saved text becomes what "unsaved" is measured against; anything typed since stays.
        reset(valuesOf(saved), { keepValues: true });
        if (issue && announce) {
          setOutcome({ tone: "success", text: `Saved as version ${saved.version}.` });
        }
        onSaved(saved);
        return saved;
      } catch (error) {
        lastFailure.current = failureText(error);
        const theirs = error instanceof ApiError && error.status === 409;
        if (theirs) stale.current = lastFailure.current;
        const message = showRefusal(error, setError, FIELDS);
        if (message !== null) {
          // Someone else saved first, or sent it: offer the issue as it is now.
          setOutcome({ tone: "error", text: message, stale: theirs });
        }
        return null;
      }
    },
    [issue, onSaved, setError, reset, kept.saved],
  );

  // One save at a time, each on the version the one before it made.
  const write = useOneAtATime(writeNow);

  const autosave = useAutosave(form, {
    enabled: issue !== null,
    incomplete: (values) => stale.current ?? firstRefusal(issueDraftSchema, values),
    kept,
    save: async (values) => {
      const saved = await write(values, false);
      return saved ? null : lastFailure.current;
    },
  });

  const { isDirty } = form.formState;

  /** The issue as saved, saving the form first when it has changes; null when the save failed. */
  const saveFirst = useCallback(
    (): Promise<IssueDetail | null> =>
      isDirty || !issue
        ? new Promise((resolve) => {
            void handleSubmit(
              async (values) => resolve(await write(values, true)),
              () => resolve(null),
            )();
          })
        : Promise.resolve(issue),
    [isDirty, issue, handleSubmit, write],
  );

  const clearOutcome = useCallback(() => setOutcome(null), []);

  return {
    form,
    submit: handleSubmit((values) => write(values, true)),
    saveFirst,
    outcome,
    clearOutcome,
    unsaved: isDirty,
    autosave: issue ? autosave : null,
    kept,
  };
}

export type DraftForm = ReturnType<typeof useDraftForm>;
