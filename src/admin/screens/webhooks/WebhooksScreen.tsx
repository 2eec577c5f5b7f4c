/**
 * Webhooks (owners only): the firm's own tools told when something happens
 * on the site. Each webhook shows its address, events and last day's
 * deliveries; its signing secret is shown once when made, and on request;
 * a test is sent on request and its answer appears in the delivery log.
 */
import { useCallback, useId, useState } from "react";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_TEXTS,
  WEBHOOKS_LABEL,
  type WebhookSave,
  type WebhookView,
} from "../../../shared/admin/webhooks.ts";
import { api, read } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { useResource } from "../../api/use-resource.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Notice } from "../../components/Notice.tsx";
import { DeliveryLog } from "./DeliveryLog.tsx";
import { WebhookForm } from "./WebhookForm.tsx";
import "./webhooks.css";

type Outcome = { tone: "success" | "error"; text: string } | null;

/** A signing secret on screen: to copy into the tool, hidden again on request. */
function SecretBox({ secret, onHide }: { secret: string; onHide: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(secret).catch(() => undefined);
    setCopied(true);
  }
  return (
    <div className="webhook-secret">
      <p className="webhook-secret__label">Signing secret</p>
      <code className="webhook-secret__value" data-testid="webhook-secret">
        {secret}
      </code>
      <p className="field-hint">
        Give it to the tool so it can check each delivery's webhook-signature header (Standard
        Webhooks). Anyone who has it can sign as this site.
      </p>
      <div className="webhook-card__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="button button-quiet" onClick={onHide}>
          Hide
        </button>
      </div>
    </div>
  );
}

function WebhookCard({
  webhook,
  httpsOnly,
  onChanged,
  onRemoved,
}: {
  webhook: WebhookView;
  httpsOnly: boolean;
  onChanged: (webhook: WebhookView) => void;
  onRemoved: (id: number, message: string) => void;
}) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<"remove" | "rotate" | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [logKey, setLogKey] = useState(0);
  const [testing, setTesting] = useState(false);

  async function save(values: WebhookSave) {
    const saved = await api.call("webhooks.save", { params: { id: webhook.id }, body: values });
    onChanged(saved);
    setEditing(false);
    setOutcome({ tone: "success", text: WEBHOOK_TEXTS.saved });
  }

  async function showSecret() {
    try {
      setSecret((await api.call("webhooks.secret", { params: { id: webhook.id } })).secret);
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    }
  }

  async function sendTest() {
    setTesting(true);
    setOutcome(null);
    try {
      const { message } = await api.call("webhooks.test", { params: { id: webhook.id } });
      setOutcome({ tone: "success", text: message });
      setLogKey((key) => key + 1);
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    } finally {
      setTesting(false);
    }
  }

  const { recent } = webhook;
  return (
    <article className="panel webhook-card" aria-labelledby={titleId}>
      <header className="webhook-card__head">
        <div className="webhook-card__title">
          <h2 id={titleId}>{webhook.name}</h2>
          <span className={`badge ${webhook.enabled ? "webhook-on" : "webhook-off"}`}>
            {webhook.enabled ? "On" : "Off"}
          </span>
        </div>
        <p className="webhook-card__url">{webhook.url}</p>
      </header>
      {editing ? (
        <WebhookForm
          initial={webhook}
          httpsOnly={httpsOnly}
          submitLabel="Save changes"
          onSubmit={save}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <dl className="webhook-card__facts">
          <div>
            <dt>Events</dt>
            <dd>{webhook.events.map((event) => WEBHOOK_EVENT_LABELS[event]).join(", ")}</dd>
          </div>
          <div>
            <dt>Body</dt>
            <dd>{WEBHOOK_FORMAT_LABELS[webhook.format]}</dd>
          </div>
          <div>
            <dt>Last 24 hours</dt>
            <dd>
              {recent.delivered} delivered · {recent.pending} pending · {recent.failed} failed
            </dd>
          </div>
        </dl>
      )}
      {secret ? <SecretBox secret={secret} onHide={() => setSecret(null)} /> : null}
      {editing ? null : (
        <div className="webhook-card__actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => void sendTest()}
            disabled={testing || !webhook.enabled}
          >
            {testing ? "Sending…" : "Send a test"}
          </button>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          {secret ? null : (
            <button type="button" className="button" onClick={() => void showSecret()}>
              Show secret
            </button>
          )}
          <button type="button" className="button" onClick={() => setConfirming("rotate")}>
            New secret
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => setConfirming("remove")}
          >
            Remove
          </button>
        </div>
      )}
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
      <DeliveryLog id={webhook.id} refreshKey={logKey} />
      <ConfirmDialog
        open={confirming === "rotate"}
        title={`A new secret for ${webhook.name}?`}
        confirmLabel="Make a new secret"
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          const rotated = await api.call("webhooks.rotate", { params: { id: webhook.id } });
          setSecret(rotated.secret);
          onChanged(rotated.webhook);
          setOutcome({ tone: "success", text: rotated.message });
          setConfirming(null);
        }}
      >
        <p>
          The current secret stops signing at once: the tool refuses the deliveries until you give
          it the new one.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "remove"}
        title={`Remove ${webhook.name}?`}
        confirmLabel="Remove webhook"
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          const { message } = await api.call("webhooks.remove", { params: { id: webhook.id } });
          setConfirming(null);
          onRemoved(webhook.id, message);
        }}
      >
        <p>Its address gets nothing more, and its delivery log goes with it.</p>
      </ConfirmDialog>
    </article>
  );
}

export default function WebhooksScreen() {
  const addId = useId();
  const { data: answer, setData: setAnswer, error: failure } = useResource(read("webhooks.list"));
  const [added, setAdded] = useState<{ secret: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const replace = useCallback(
    (webhook: WebhookView) =>
      setAnswer((current) =>
        current
          ? {
              ...current,
              webhooks: current.webhooks.map((each) => (each.id === webhook.id ? webhook : each)),
            }
          : current,
      ),
    [setAnswer],
  );

  async function add(values: WebhookSave) {
    const made = await api.call("webhooks.add", { body: values });
    setAnswer((current) =>
      current ? { ...current, webhooks: [...current.webhooks, made.webhook] } : current,
    );
    setAdded({ secret: made.secret, message: made.message });
    setNotice(null);
  }

  return (
    <div className="webhooks">
      <div className="screen-head">
        <div>
          <h1>{WEBHOOKS_LABEL}</h1>
          <p className="screen-lead">
            Tell the firm's own tools, such as a Slack channel or a CRM, when an inquiry arrives,
            someone subscribes, confirms or leaves, or an Insight send finishes. Each delivery is
            signed, and tried again for about a day while the tool is down.
          </p>
        </div>
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      {answer?.privateAllowed ? (
        <p className="webhooks__setting">
          This server lets webhooks reach private addresses and plain http (WEBHOOKS_ALLOW_PRIVATE),
          for tools on the firm's own network.
        </p>
      ) : null}
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {answer ? (
        <div className="webhooks__layout">
          <div className="webhooks__list">
            {answer.webhooks.length === 0 ? (
              <p className="panel webhooks__empty">
                No webhooks yet. Add the address your tool gives for incoming webhooks.
              </p>
            ) : (
              answer.webhooks.map((webhook) => (
                <WebhookCard
                  key={webhook.id}
                  webhook={webhook}
                  httpsOnly={answer.httpsOnly}
                  onChanged={replace}
                  onRemoved={(id, message) => {
                    setAnswer((current) =>
                      current
                        ? {
                            ...current,
                            webhooks: current.webhooks.filter((each) => each.id !== id),
                          }
                        : current,
                    );
                    setNotice(message);
                  }}
                />
              ))
            )}
          </div>
          <section className="panel webhooks__add" aria-labelledby={addId}>
            <h2 id={addId}>Add a webhook</h2>
            <WebhookForm httpsOnly={answer.httpsOnly} submitLabel="Add webhook" onSubmit={add} />
            {added ? (
              <>
                <Notice tone="success">{added.message}</Notice>
                <SecretBox secret={added.secret} onHide={() => setAdded(null)} />
              </>
            ) : null}
          </section>
        </div>
      ) : failure ? null : (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
    </div>
  );
}
