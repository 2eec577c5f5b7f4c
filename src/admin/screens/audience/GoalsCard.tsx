/**
 * Goals, as Plausible calls them: the inquiry and the subscription, built
 * in, and the pages the firm names (a thank-you page, a case study), each
 * with how often the period's visits reached it and the share of visits
 * that is. Editors add a page by its path and remove one; the figures count
 * back over the days already kept, so a goal added today shows last month.
 */
import { useState } from "react";
import { GOAL_LABELS, type GoalFigures, newGoalSchema } from "../../../shared/admin/audience.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import { api, read } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { AddOneForm } from "../../components/AddOneForm.tsx";
import { Notice } from "../../components/Notice.tsx";
import { percent, whole } from "./format.ts";
import type { RangeChoice } from "./RangePicker.tsx";

const nameOf = (goal: GoalFigures) =>
  goal.kind === "page" ? (goal.path ?? "") : GOAL_LABELS[goal.kind];

export function GoalsCard({ choice }: { choice: RangeChoice }) {
  const editor = hasRole(useMe().role, "editor");
  const goals = useResource(read("audience.goals", { query: choice }));
  const [failure, setFailure] = useState<string | null>(null);

  async function remove(goal: GoalFigures) {
    setFailure(null);
    try {
      await api.call("audience.removeGoal", { params: { id: goal.id ?? 0 } });
      goals.reload();
    } catch (error) {
      setFailure(failureText(error));
    }
  }

  return (
    <section className="card" aria-labelledby="goals-title">
      <div className="card-head">
        <h2 id="goals-title">Goals</h2>
      </div>
      {goals.error ? <Notice tone="error">{goals.error}</Notice> : null}
      {goals.data ? (
        <table className="breakdown">
          <caption className="visually-hidden">Goals reached by the period's visits</caption>
          <thead>
            <tr>
              <th scope="col">Goal</th>
              <th scope="col" className="num">
                Reached
              </th>
              <th scope="col" className="num">
                Of visits
              </th>
              {editor ? (
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {goals.data.goals.map((goal) => (
              <tr key={goal.id ?? goal.kind}>
                <th scope="row" className="bar-cell">
                  <span
                    className="bar"
                    style={{ inlineSize: `${(Math.min(goal.rate ?? 0, 1) * 100).toFixed(1)}%` }}
                    aria-hidden="true"
                  />
                  <span className="bar-name">{nameOf(goal)}</span>
                </th>
                <td className="num">{whole(goal.reached)}</td>
                <td className="num">{percent(goal.rate)}</td>
                {editor ? (
                  <td className="goal-remove">
                    {goal.id === null ? null : (
                      <button
                        type="button"
                        className="button button-quiet"
                        onClick={() => remove(goal)}
                        aria-label={`Remove the goal ${nameOf(goal)}`}
                        title="Remove this goal"
                      >
                        <span aria-hidden="true">×</span>
                      </button>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p role="status">Loading…</p>
      )}
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      {editor ? (
        <AddOneForm
          name="path"
          schema={newGoalSchema}
          label="Add a page as a goal"
          hint="Its path on the site, e.g. /weserve or /insight/cloud-costs. Counted from the first day kept."
          action="Add goal"
          busyAction="Adding…"
          className="goal-form"
          add={(goal) => api.call("audience.addGoal", { body: goal })}
          onAdded={goals.reload}
        />
      ) : null}
    </section>
  );
}
