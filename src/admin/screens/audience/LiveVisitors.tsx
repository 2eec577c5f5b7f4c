/**
 * The visitors of the last LIVE_MINUTES, asked again every LIVE_EVERY_MS
 * while the tab is in view: a glance at who is on the site now, beside
 * the range's figures. Not announced as it changes: a screen reader reads
 * it when asked, not every half minute.
 */
import { LIVE_EVERY_MS, LIVE_MINUTES } from "../../../shared/admin/audience.ts";
import { read } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { whole } from "./format.ts";

export function LiveVisitors() {
  const live = useResource(read("audience.live"));
  useKeptCurrent(live.reload, LIVE_EVERY_MS);
  const data = live.data;
  if (!data) return null;
  if (!data.counting) return <p className="audience-live quiet">Visits are not counted.</p>;
  return (
    <p className="audience-live">
      <span className="audience-live__dot" aria-hidden="true" />
      <strong>{whole(data.visitors)}</strong> {data.visitors === 1 ? "visitor" : "visitors"} in the
      last {LIVE_MINUTES} minutes
    </p>
  );
}
