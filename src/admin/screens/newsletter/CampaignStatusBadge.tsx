/** A campaign's status as a badge: the word says it, the colour helps the eye find the live ones. */
import { CAMPAIGN_STATUS_LABELS, type CampaignStatus } from "../../../shared/admin/newsletter.ts";

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <span className={`badge campaign-badge campaign-badge-${status}`}>
      {CAMPAIGN_STATUS_LABELS[status]}
    </span>
  );
}
