/** The inquiries area: the inbox's list, and one inquiry at inquiries/:id. */
import { Route, Routes } from "react-router";
import { InboxScreen } from "./InboxScreen.tsx";
import { InquiryScreen } from "./InquiryScreen.tsx";
import "./inquiries.css";

export default function InquiriesScreen() {
  return (
    <Routes>
      <Route index element={<InboxScreen />} />
      <Route path=":id" element={<InquiryScreen />} />
    </Routes>
  );
}
