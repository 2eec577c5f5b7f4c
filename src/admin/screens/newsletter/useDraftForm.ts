/**
 * A draft's form, checked by the schema the server checks it with. A save
 * sends the version the form was loaded from; if someone saved since, the
 * server refuses it (409) and the form keeps everything typed, with the
 * choice to load their version. The preview, the test and the send save
 * first when there are unsaved changes (`saveFirst`), so they always show
 * and send what is on the screen.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type IssueDetail,
  type IssueDraft,
  issueDraftSchema,
} from "../../../shared/admin/newsletter.ts";
import { ApiError, api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
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

  // A saved or reloaded issue is what the form shows from then on.
  useEffect(() => {
    if (issue) reset(valuesOf(issue));
  }, [issue, reset]);

  const write = useCallback(
    async (values: IssueDraft): Promise<IssueDetail | null> => {
      setOutcome(null);
      try {
        const saved = issue
          ? await api.call("newsletter.save", {
              params: { id: issue.id },
              body: { ...values, version: issue.version },
            })
          : await api.call("newsletter.create", { body: values });
        if (issue) setOutcome({ tone: "success", text: `Saved as version ${saved.version}.` });
        onSaved(saved);
        return saved;
      } catch (error) {
        const message = showRefusal(error, setError, FIELDS);
        if (message !== null) {
          setOutcome({
            tone: "error",
            text: message,
            // Someone else saved first, or sent it: offer the issue as it is now.
            stale: error instanceof ApiError && error.status === 409,
          });
        }
        return null;
      }
    },
    [issue, onSaved, setError],
  );

  const { isDirty } = form.formState;

  /** The issue as saved, saving the form first when it has changes; null when the save failed. */
  const saveFirst = useCallback(
    (): Promise<IssueDetail | null> =>
      isDirty || !issue
        ? new Promise((resolve) => {
            void handleSubmit(
              async (values) => resolve(await write(values)),
              () => resolve(null),
            )();
          })
        : Promise.resolve(issue),
    [isDirty, issue, handleSubmit, write],
  );

  const clearOutcome = useCallback(() => setOutcome(null), []);

  return { form, submit: handleSubmit(write), saveFirst, outcome, clearOutcome, unsaved: isDirty };
}

export type DraftForm = ReturnType<typeof useDraftForm>;
