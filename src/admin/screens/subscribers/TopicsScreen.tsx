/**
 * The topics the subscribe page offers (/subscribers/topics): the firm's
 * industries, capabilities or its own words, each with how many active
 * subscribers chose it. Editors add one, or remove one after a
 * confirmation (the subscribers' choice of it goes with it). The page
 * changes at once on every instance; a send may go to a topic's people.
 */
import { useState } from "react";
import { hasRole } from "../../../shared/admin/roles.ts";
import { newTopicSchema, type TopicCount } from "../../../shared/admin/subscribers.ts";
import { SUBSCRIBE_PATH } from "../../../shared/routes.ts";
import { TOPICS_MAX } from "../../../shared/subscription.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { AddOneForm } from "../../components/AddOneForm.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Notice } from "../../components/Notice.tsx";

const chose = (active: number) =>
  `${active.toLocaleString("en-GB")} active ${active === 1 ? "subscriber" : "subscribers"}`;

export function TopicsScreen() {
  const editor = hasRole(useMe().role, "editor");
  const topics = useResource(read("subscribers.topics"));
  const [removing, setRemoving] = useState<TopicCount | null>(null);
  const items = topics.data?.items;

  return (
    <div className="topics-screen">
      <div className="screen-head">
        <div>
          <h1>Topics</h1>
          <p className="screen-lead">
            What a visitor may choose to hear about on the{" "}
            <a href={SUBSCRIBE_PATH} target="_blank" rel="noreferrer">
              subscribe page<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            : your industries, your capabilities, or your own words. Choosing is optional; an issue
            can go to those who chose a topic. With no topic, the page asks for the address alone.
          </p>
        </div>
      </div>
      {topics.error ? <Notice tone="error">{topics.error}</Notice> : null}
      <section className="panel" aria-labelledby="topics-title">
        <h2 id="topics-title">On the subscribe page</h2>
        {items === undefined ? <p role="status">Loading…</p> : null}
        {items?.length === 0 ? <p className="quiet">No topic yet.</p> : null}
        {items && items.length > 0 ? (
          <ul className="topic-list">
            {items.map((topic) => (
              <li key={topic.id} className="topic-row">
                <span className="topic-row__name">{topic.name}</span>
                <span className="topic-row__count">chosen by {chose(topic.active)}</span>
                {editor ? (
                  <button
                    type="button"
                    className="button button-quiet topic-row__remove"
                    onClick={() => setRemoving(topic)}
                    aria-label={`Remove ${topic.name}…`}
                  >
                    Remove…
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {editor && items && items.length < TOPICS_MAX ? (
          <AddOneForm
            name="name"
            schema={newTopicSchema}
            label="Add a topic"
            hint="As visitors will read it, e.g. Insurance or Data platforms."
            action="Add topic"
            busyAction="Adding…"
            className="topic-form"
            add={(topic) => api.call("subscribers.addTopic", { body: topic })}
            onAdded={topics.reload}
          />
        ) : null}
        {editor && items && items.length >= TOPICS_MAX ? (
          <p className="field-hint">
            The page offers {TOPICS_MAX} topics, the most it takes: remove one to add another.
          </p>
        ) : null}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove “${removing?.name ?? ""}”?`}
        confirmLabel="Remove the topic"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await api.call("subscribers.removeTopic", { params: { id: removing.id } });
          setRemoving(null);
          topics.reload();
        }}
      >
        <p>
          The subscribe page no longer offers it, and the {chose(removing?.active ?? 0)} who chose
          it lose that choice. Their subscriptions stay.
        </p>
      </ConfirmDialog>
    </div>
  );
}
