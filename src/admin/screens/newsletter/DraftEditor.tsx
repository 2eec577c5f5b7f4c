/**
 * A draft being written: the form, beside it the ways to send it, and below
 * them the preview of its last saved version.
 */
import type { CampaignDetail } from "../../../shared/admin/newsletter.ts";
import { CampaignForm } from "./CampaignForm.tsx";
import { PreviewPanel } from "./PreviewPanel.tsx";
import { SendPanel } from "./SendPanel.tsx";
import { useDraftForm } from "./useDraftForm.ts";

interface DraftEditorProps {
  campaign: CampaignDetail;
  onSaved(campaign: CampaignDetail): void;
  /** Sent now or scheduled: no longer a draft. */
  onSent(campaign: CampaignDetail): void;
  onReload(): Promise<void>;
  onDeleted(): void;
}

export function DraftEditor({ campaign, onSaved, onSent, onReload, onDeleted }: DraftEditorProps) {
  const draft = useDraftForm(campaign, onSaved);
  return (
    <div className="campaign-layout">
      <CampaignForm campaign={campaign} draft={draft} onReload={onReload} />
      <SendPanel
        campaign={campaign}
        saveFirst={draft.saveFirst}
        onChanged={onSent}
        onDeleted={onDeleted}
      />
      <PreviewPanel
        campaign={campaign}
        unsaved={draft.unsaved}
        onSave={() => void draft.saveFirst()}
      />
    </div>
  );
}
