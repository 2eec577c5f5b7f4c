/**
 * The subscribers area: the list at /subscribers, the import (owners) at
 * /subscribers/import, the subscribe page's topics at /subscribers/topics,
 * one subscriber at /subscribers/:id.
 */
import { Route, Routes } from "react-router";
import { RequireRole } from "../../layout/RequireRole.tsx";
import { ImportScreen } from "./ImportScreen.tsx";

/** Importing speaks for every person in the file: an owner's act (the server refuses the rest too). */
const IMPORTER = "owner";

import { SubscriberDetailScreen } from "./SubscriberDetailScreen.tsx";
import { SubscriberListScreen } from "./SubscriberListScreen.tsx";
import { TopicsScreen } from "./TopicsScreen.tsx";
import "./subscribers.css";

export default function SubscribersScreen() {
  return (
    <Routes>
      <Route index element={<SubscriberListScreen />} />
      <Route
        path="import"
        element={
          <RequireRole role={IMPORTER}>
            <ImportScreen />
          </RequireRole>
        }
      />
      <Route path="topics" element={<TopicsScreen />} />
      <Route path=":id" element={<SubscriberDetailScreen />} />
    </Routes>
  );
}
