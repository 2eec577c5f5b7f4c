/**
 * A draft's text: its title, its address (suggested from the title until the
 * editor writes one), its summary and its Markdown body, and the save bar.
 */
import { useState } from "react";
import { type IssueDetail, slugify } from "../../../shared/admin/newsletter.ts";
import { insightIssuePath } from "../../../shared/routes.ts";
import { useResetOnChange } from "../../../web/hooks/use-reset-on-change.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { AutosaveStatus, RestoredNotice } from "../../forms/FormKeeping.tsx";
import { SaveBar } from "../content/SaveBar.tsx";
import { BodyField } from "./BodyField.tsx";
import type { DraftForm } from "./use-draft-form.ts";

/** A saved slug that is not the title's is the editor's own: the title no longer changes it. */
const followsTitle = (issue: IssueDetail | null) => !issue || issue.slug === slugify(issue.title);

interface IssueFormProps {
  issue: IssueDetail | null;
  draft: DraftForm;
  /** Loads the issue as it is now (after someone else saved it); a new one has nothing to load. */
  onReload?(): void;
}

export function IssueForm({ issue, draft, onReload }: IssueFormProps) {
  const {
    register,
    setValue,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = draft.form;
  const [slugFollows, setSlugFollows] = useState(() => followsTitle(issue));
  const slug = watch("slug");

  // A saved or reloaded issue says anew whether its address is the title's.
  useResetOnChange(issue, () => setSlugFollows(followsTitle(issue)));

  function loadTheirs() {
    draft.clearOutcome();
    onReload?.();
  }

  const { kept, autosave } = draft;
  return (
    <form className="panel entry-form issue-form" onSubmit={draft.submit} noValidate>
      {kept.restoredAt ? <RestoredNotice at={kept.restoredAt} onDiscard={kept.discard} /> : null}
      <Field
        label="Title"
        autoComplete="off"
        error={errors.title?.message}
        {...register("title", {
          onChange: (event) => {
            if (!slugFollows) return;
            setValue("slug", slugify(event.target.value), {
              shouldDirty: true,
              shouldValidate: isSubmitted,
            });
          },
        })}
      />
      <Field
        label="Address"
        hint={
          <>
            The issue is published at{" "}
            <code>{slug ? insightIssuePath(slug) : `${insightIssuePath("")}…`}</code>.{" "}
            {slugFollows ? "Suggested from the title until you change it." : null}
          </>
        }
        autoComplete="off"
        spellCheck={false}
        error={errors.slug?.message}
        {...register("slug", {
          // An emptied address follows the title again.
          onChange: (event) => setSlugFollows(event.target.value === ""),
        })}
      />
      <FieldFrame
        label="Summary"
        hint="One or two sentences: the e-mail's preview line and the archive's description."
        error={errors.summary?.message}
      >
        {(control) => <textarea {...control} rows={3} {...register("summary")} />}
      </FieldFrame>
      <BodyField form={draft.form} />
      <SaveBar
        label={issue ? "Save" : "Create draft"}
        saving={isSubmitting}
        unsaved={draft.unsaved}
        outcome={draft.outcome}
        onLoadTheirs={loadTheirs}
        status={autosave ? <AutosaveStatus state={autosave} /> : undefined}
      />
      {kept.leaveDialog}
    </form>
  );
}
