/**
 * The newsletter area: the issues at /newsletter, a new one at
 * newsletter/new, and one issue at newsletter/:id, written while it is a
 * draft and watched while it is sent.
 */
import { Navigate, Route, Routes } from "react-router";
import { CampaignListScreen } from "./CampaignListScreen.tsx";
import { CampaignScreen } from "./CampaignScreen.tsx";
import { NewCampaignScreen } from "./NewCampaignScreen.tsx";
import { NEWSLETTER_ROUTE } from "./routes.ts";
// The draft's save bar (SaveBar.tsx) and the picture control are the content forms' own, styled there.
import "../content/content.css";
import "./newsletter.css";

export default function NewsletterScreen() {
  return (
    <div className="newsletter">
      <Routes>
        <Route index element={<CampaignListScreen />} />
        <Route path="new" element={<NewCampaignScreen />} />
        <Route path=":id" element={<CampaignScreen />} />
        <Route path="*" element={<Navigate to={NEWSLETTER_ROUTE} replace />} />
      </Routes>
    </div>
  );
}
