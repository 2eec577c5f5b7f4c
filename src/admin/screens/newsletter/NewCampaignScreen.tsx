/** A new issue: an empty draft form; once created, the issue opens at its own address. */
import { Navigate, useNavigate } from "react-router";
import type { CampaignDetail } from "../../../shared/admin/newsletter.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import { useMe } from "../../auth/session.tsx";
import { CampaignForm } from "./CampaignForm.tsx";
import { CampaignHead } from "./CampaignHead.tsx";
import { type ArrivalState, campaignRoute, NEWSLETTER_ROUTE } from "./routes.ts";
import { useDraftForm } from "./useDraftForm.ts";

const CREATED =
  "Created as a draft. Preview it below, send yourself a test, then send it or schedule it.";

export function NewCampaignScreen() {
  const writes = hasRole(useMe().role, "editor");
  return writes ? <NewCampaign /> : <Navigate to={NEWSLETTER_ROUTE} replace />;
}

function NewCampaign() {
  const navigate = useNavigate();
  const draft = useDraftForm(null, (campaign: CampaignDetail) => {
    const state: ArrivalState = { notice: CREATED };
    navigate(campaignRoute(campaign.id), { replace: true, state });
  });

  return (
    <section aria-labelledby="campaign-title" className="campaign">
      <CampaignHead campaign={null} />
      <div className="campaign-layout">
        <CampaignForm campaign={null} draft={draft} />
        <section className="panel send-panel" aria-labelledby="send-title">
          <h2 id="send-title">Send</h2>
          <p className="send-panel__lead">
            Create the draft first; then you can preview it, send yourself a test, and send it or
            schedule it.
          </p>
        </section>
      </div>
    </section>
  );
}
