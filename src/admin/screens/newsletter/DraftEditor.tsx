/**
 * A draft being written: the form, beside it the ways to send it, and below
 * them the preview of its last saved version.
 */
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { IssueForm } from "./IssueForm.tsx";
import { PreviewPanel } from "./PreviewPanel.tsx";
import { SendPanel } from "./SendPanel.tsx";
import { useDraftForm } from "./use-draft-form.ts";

interface DraftEditorProps {
  issue: IssueDetail;
  onSaved(issue: IssueDetail): void;
  /** Sent now or scheduled: no longer a draft. */
  onSent(issue: IssueDetail): void;
  onReload(): void;
  onDeleted(): void;
}

export function DraftEditor({ issue, onSaved, onSent, onReload, onDeleted }: DraftEditorProps) {
  const draft = useDraftForm(issue, onSaved);
  return (
    <div className="issue-layout">
      <IssueForm issue={issue} draft={draft} onReload={onReload} />
      <SendPanel
        issue={issue}
        saveFirst={draft.saveFirst}
        onChanged={onSent}
        onDeleted={onDeleted}
      />
      <PreviewPanel issue={issue} unsaved={draft.unsaved} onSave={() => void draft.saveFirst()} />
    </div>
  );
}
