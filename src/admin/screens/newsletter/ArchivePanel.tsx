/**
 * A sent issue's page in the archive: whether the archive shows it, and when
 * it was last corrected; for editors, the corrected title, summary and body,
 * the page's earlier versions to restore, and withdrawing the issue from the
 * archive (after a confirmation) or putting it back. The e-mail already sent
 * never changes, and the panel says so where an editor decides.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import {
  ARCHIVE_TEXTS,
  type ArchivePage,
  archivePageSchema,
} from "../../../shared/admin/newsletter-archive.ts";
import { insightIssuePath } from "../../../shared/routes.ts";
import { useResetOnChange } from "../../../web/hooks/use-reset-on-change.ts";
import { api, read } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { useResource } from "../../api/use-resource.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { Notice } from "../../components/Notice.tsx";
import { RestoredNotice } from "../../forms/FormKeeping.tsx";
import { useKeptTyping, useShowsVersion } from "../../forms/use-kept-typing.tsx";
import { useOutcome } from "../inquiries/use-outcome.tsx";
import { Moment } from "../people/Moment.tsx";

const FIELDS = archivePageSchema.keyof().options;

const pageOf = ({ title, summary, body }: ArchivePage): ArchivePage => ({ title, summary, body });

interface ArchivePanelProps {
  issue: IssueDetail;
  /** An editor: the correction, the restores and the withdrawal are offered. */
  controls: boolean;
  onChanged(issue: IssueDetail): void;
}

export function ArchivePanel({ issue, controls, onChanged }: ArchivePanelProps) {
  const action = useOutcome();
  const [confirmingWithdrawal, setConfirmingWithdrawal] = useState(false);
  const history = useResource(read("newsletterArchive.versions", { params: { id: issue.id } }));
  const versions = history.data?.versions ?? null;
  const versionsFailure = history.error;

  // Every change of the issue (a correction, a restore, someone else's) may add a version.
  useResetOnChange(issue.version, history.reload);

  const changed = (next: IssueDetail) => {
    onChanged(next);
    return next;
  };

  const restore = (version: number) =>
    action.attempt(
      async () =>
        changed(
          await api.call("newsletterArchive.restore", {
            params: { id: issue.id, version },
            body: { version: issue.version },
          }),
        ),
      (restored) => `Version ${version} restored as version ${restored.version}.`,
    );

  const withdrawn = issue.withdrawnAt !== null;

  return (
    <section className="panel archive-panel" aria-labelledby="archive-title">
      <h2 id="archive-title">In the archive</h2>
      <p className="archive-state" aria-live="polite">
        {withdrawn && issue.withdrawnAt ? (
          <>
            Withdrawn on <Moment iso={issue.withdrawnAt} />: its address answers that it is gone,
            and it is not in the archive, the feed or the sitemap.
          </>
        ) : (
          <>
            Published at <code>{insightIssuePath(issue.slug)}</code>
            {issue.correctedAt ? (
              <>
                , last corrected on <Moment iso={issue.correctedAt} />
              </>
            ) : null}
            .
          </>
        )}
      </p>

      {controls ? (
        <div className="archive-actions">
          {withdrawn ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() =>
                action.attempt(
                  async () =>
                    changed(
                      await api.call("newsletterArchive.putBack", { params: { id: issue.id } }),
                    ),
                  () => "Put back in the archive.",
                )
              }
            >
              Put back in the archive
            </button>
          ) : (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setConfirmingWithdrawal(true)}
            >
              Withdraw from the archive…
            </button>
          )}
        </div>
      ) : null}
      {action.notice}

      {controls ? <CorrectionForm issue={issue} onCorrected={onChanged} /> : null}

      <details className="archive-versions">
        <summary>Versions of the page</summary>
        {versionsFailure ? <Notice tone="error">{versionsFailure}</Notice> : null}
        {versions === null ? null : (
          <ol reversed>
            {versions.map((version, index) => (
              <li key={version.version}>
                <p>
                  Version {version.version}, by {version.author} on{" "}
                  <Moment iso={version.createdAt} />
                  {index === versions.length - 1 ? " (as sent)" : ""}
                  {version.version === issue.version ? " (shown now)" : ""}
                </p>
                <p className="archive-versions__title">{version.title}</p>
                {controls && version.version !== issue.version ? (
                  <button type="button" className="button" onClick={() => restore(version.version)}>
                    Restore version {version.version}
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </details>

      <ConfirmDialog
        open={confirmingWithdrawal}
        title="Withdraw this issue from the archive?"
        confirmLabel="Withdraw"
        dismissLabel="Keep it published"
        onClose={() => setConfirmingWithdrawal(false)}
        onConfirm={async () => {
          onChanged(await api.call("newsletterArchive.withdraw", { params: { id: issue.id } }));
          setConfirmingWithdrawal(false);
        }}
      >
        <p className="confirm-dialog-target">{issue.title}</p>
        <p>{ARCHIVE_TEXTS.withdrawConfirm}</p>
      </ConfirmDialog>
    </section>
  );
}

/** The page's title, summary and body, saved as a correction on the version they were loaded from. */
function CorrectionForm({
  issue,
  onCorrected,
}: {
  issue: IssueDetail;
  onCorrected(issue: IssueDetail): void;
}) {
  const form = useForm<ArchivePage>({
    resolver: zodResolver(archivePageSchema),
    defaultValues: pageOf(issue),
  });
  const {
    register,
    setError,
    handleSubmit,
    formState: { errors, isSubmitting, isDirty },
  } = form;
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const kept = useKeptTyping(form, `archive:${issue.id}`);
  // A corrected, restored or reloaded issue is what the form shows from then on.
  useShowsVersion(form, kept, issue.version, () => pageOf(issue));

  const correct = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      const corrected = await api.call("newsletterArchive.correct", {
        params: { id: issue.id },
        body: { ...values, version: issue.version },
      });
      kept.saved(values);
      onCorrected(corrected);
      setOutcome({
        tone: "success",
        text: `Corrected as version ${corrected.version}. The site shows it now; the e-mail already sent is unchanged.`,
      });
    } catch (error) {
      const message = showRefusal(error, setError, FIELDS);
      if (message !== null) setOutcome({ tone: "error", text: message });
    }
  });

  return (
    // Open by itself when a correction typed earlier was put back.
    <details className="archive-correction" open={kept.restoredAt ? true : undefined}>
      <summary>Correct the page</summary>
      <form className="entry-form" onSubmit={correct} noValidate>
        {kept.restoredAt ? <RestoredNotice at={kept.restoredAt} onDiscard={kept.discard} /> : null}
        <p className="field-hint">
          Changes the page at <code>{insightIssuePath(issue.slug)}</code> and the feed, not the
          e-mail already sent. The address stays.
        </p>
        <Field
          label="Title"
          autoComplete="off"
          error={errors.title?.message}
          {...register("title")}
        />
        <FieldFrame label="Summary" error={errors.summary?.message}>
          {(control) => <textarea {...control} rows={3} {...register("summary")} />}
        </FieldFrame>
        <FieldFrame
          label="Body"
          hint="Markdown, as the issue was written."
          error={errors.body?.message}
        >
          {(control) => (
            <textarea {...control} className="markdown-input" rows={14} {...register("body")} />
          )}
        </FieldFrame>
        {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
        <p>
          <button
            type="submit"
            className="button button-primary"
            disabled={isSubmitting || !isDirty}
          >
            {isSubmitting ? "Saving…" : "Save the correction"}
          </button>
        </p>
        {kept.leaveDialog}
      </form>
    </details>
  );
}
