/**
 * The newsletter area: the issues at /newsletter, a new one at
 * newsletter/new, and one issue at newsletter/:id, written while it is a
 * draft and watched while it is sent.
 */
import { Navigate, Route, Routes } from "react-router";
import { IssueListScreen } from "./IssueListScreen.tsx";
import { IssueScreen } from "./IssueScreen.tsx";
import { NewIssueScreen } from "./NewIssueScreen.tsx";
import { NEWSLETTER_ROUTE } from "./routes.ts";
// The draft's save bar (SaveBar.tsx) and the picture control are the content forms' own, styled there.
import "../content/content.css";
import "./newsletter.css";

export default function NewsletterScreen() {
  return (
    <div className="newsletter">
      <Routes>
        <Route index element={<IssueListScreen />} />
        <Route path="new" element={<NewIssueScreen />} />
        <Route path=":id" element={<IssueScreen />} />
        <Route path="*" element={<Navigate to={NEWSLETTER_ROUTE} replace />} />
      </Routes>
    </div>
  );
}
