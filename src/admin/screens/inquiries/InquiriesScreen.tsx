/** The inquiries area: the inbox's list, one inquiry at inquiries/:id, and the turned-away posts. */
import { Route, Routes } from "react-router";
import { InboxScreen } from "./InboxScreen.tsx";
import { InquiryScreen } from "./InquiryScreen.tsx";
import { TurnedAwayScreen } from "./TurnedAwayScreen.tsx";
import "./inquiries.css";

export default function InquiriesScreen() {
  return (
    <Routes>
      <Route index element={<InboxScreen />} />
      <Route path="turned-away" element={<TurnedAwayScreen />} />
      <Route path=":id" element={<InquiryScreen />} />
    </Routes>
  );
}
