/**
 * The top of an issue's screen: the way back, its title, and where it
 * stands. The title takes the focus when an action replaces the part of the
 * screen that had it (CampaignScreen).
 */
import { Link } from "react-router";
import type { CampaignDetail } from "../../../shared/admin/newsletter.ts";
import { Moment } from "../people/Moment.tsx";
import { CampaignStatusBadge } from "./CampaignStatusBadge.tsx";
import { NEWSLETTER_ROUTE } from "./routes.ts";

export function CampaignHead({ campaign }: { campaign: CampaignDetail | null }) {
  return (
    <>
      <p className="newsletter-back">
        <Link to={NEWSLETTER_ROUTE}>
          <span aria-hidden="true">← </span>All issues
        </Link>
      </p>
      <div className="screen-head campaign-head">
        <div>
          <h1 id="campaign-title" tabIndex={-1}>
            {campaign ? campaign.title : "New issue"}
          </h1>
          {campaign ? (
            <p className="campaign-meta">
              <CampaignStatusBadge status={campaign.status} /> Version {campaign.version} · by{" "}
              {campaign.author} · last changed <Moment iso={campaign.updatedAt} />
            </p>
          ) : (
            <p className="campaign-meta">
              Write it, save it, preview it and send yourself a test; then send it or schedule it.
            </p>
          )}
        </div>
      </div>
    </>
  );
}
