/** The subscribers area: the list at /subscribers, one subscriber at /subscribers/:id. */
import { Route, Routes } from "react-router";
import { SubscriberDetailScreen } from "./SubscriberDetailScreen.tsx";
import { SubscriberListScreen } from "./SubscriberListScreen.tsx";
import "./subscribers.css";

export default function SubscribersScreen() {
  return (
    <Routes>
      <Route index element={<SubscriberListScreen />} />
      <Route path=":id" element={<SubscriberDetailScreen />} />
    </Routes>
  );
}
