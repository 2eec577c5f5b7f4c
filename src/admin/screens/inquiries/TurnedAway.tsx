/**
 * One line under the inbox's heading: how many posts the forms' traps turned
 * away lately (ADR 017), and the way to the posts themselves (ADR 036).
 */
import { Link } from "react-router";
import type { DefendedForm } from "../../../shared/bot-defence.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function TurnedAway() {
  const { data } = useResource(read("defences.trips"));
  if (!data) return null;
  const of = (form: DefendedForm) =>
    data.trips.filter((row) => row.form === form).reduce((sum, row) => sum + row.trips, 0);
  return (
    <p className="inbox-glance">
      Turned away as automated in the last {data.days} days:{" "}
      {plural(of("inquiry"), "inquiry", "inquiries")},{" "}
      {plural(of("subscription"), "subscription", "subscriptions")}.{" "}
      <Link to="turned-away">Review the turned-away posts</Link>
    </p>
  );
}
