/**
 * One webhook's delivery log: its latest deliveries, newest first, each with
 * its state, attempts and the answers its receiver gave (status, first bytes
 * of the body, time taken, what went wrong). Read again every few seconds
 * while a delivery is still pending, so a test's answer and a retry appear
 * without a reload.
 */
import { useEffect, useId } from "react";
import {
  type AnyWebhookEventType,
  DELIVERY_STATE_LABELS,
  type DeliveryView,
  WEBHOOK_EVENT_LABELS,
} from "../../../shared/admin/webhooks.ts";
import { read } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";

const POLL_MS = 1500;

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" });

function eventLabel(event: string): string {
  return WEBHOOK_EVENT_LABELS[event as AnyWebhookEventType] ?? event;
}

function Answers({ delivery }: { delivery: DeliveryView }) {
  if (delivery.answers.length === 0)
    return <span className="webhook-log__none">Not tried yet</span>;
  return (
    <ol className="webhook-log__answers">
      {delivery.answers.map((answer) => (
        <li key={answer.at}>
          <span className="webhook-log__status">
            {answer.status === null ? "No answer" : answer.status}
          </span>{" "}
          <span className="webhook-log__meta">
            {answer.durationMs} ms · {when(answer.at)}
          </span>
          {answer.error ? <span className="webhook-log__error">{answer.error}</span> : null}
          {answer.body ? <code className="webhook-log__body">{answer.body}</code> : null}
        </li>
      ))}
    </ol>
  );
}

export function DeliveryLog({ id, refreshKey }: { id: number; refreshKey: number }) {
  const titleId = useId();
  const log = useResource(read("webhooks.deliveries", { params: { id } }));
  const { error: failure, reload } = log;
  const deliveries = log.data?.deliveries ?? null;

  // A new refreshKey asks for a new read (a test was just queued); the first read is the resource's own.
  useEffect(() => {
    if (refreshKey > 0) reload();
  }, [refreshKey, reload]);

  const pending = deliveries?.some((delivery) => delivery.state === "pending") ?? false;
  useKeptCurrent(reload, pending ? POLL_MS : undefined);

  return (
    <section className="webhook-log" aria-labelledby={titleId}>
      <div className="webhook-log__head">
        <h3 id={titleId}>Delivery log</h3>
        <button type="button" className="button button-quiet" onClick={reload}>
          Refresh
        </button>
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      {deliveries === null ? (
        failure ? null : (
          <p className="loading" role="status">
            Loading…
          </p>
        )
      ) : deliveries.length === 0 ? (
        <p className="webhook-log__empty">
          Nothing sent yet. Send a test to see what the tool answers.
        </p>
      ) : (
        <div className="table-wrap table-wrap--stacks">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Answers, latest first</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} data-testid="webhook-delivery">
                  <td data-label="Event">
                    <span className="webhook-log__event">{eventLabel(delivery.event)}</span>
                    <span className="webhook-log__meta">{when(delivery.createdAt)}</span>
                  </td>
                  <td data-label="State">
                    <span className={`badge webhook-state webhook-state--${delivery.state}`}>
                      {DELIVERY_STATE_LABELS[delivery.state]}
                    </span>
                    {delivery.state === "pending" && delivery.nextAttemptAt ? (
                      <span className="webhook-log__meta">
                        Next try {when(delivery.nextAttemptAt)}
                      </span>
                    ) : null}
                  </td>
                  <td data-label="Attempts">
                    <span>{delivery.attempts}</span>
                  </td>
                  <td data-label="Answers">
                    <Answers delivery={delivery} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
