/**
 * One subscriber: status, the person (name, tags, imported fields), consent
 * history (when, what, how), and what may be
 * done on the person's request: an editor unsubscribes them, an owner erases
 * them. A viewer reads only.
 */
import { useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { hasRole } from "../../../shared/admin/roles.ts";
import {
  SUBSCRIBER_TEXTS,
  type SubscriberDetail,
  subscriberIdSchema,
  viaLabel,
} from "../../../shared/admin/subscribers.ts";
import { ApiError, api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { EraseDialog } from "../../components/EraseDialog.tsx";
import { LeadSourcePanel } from "../../components/LeadSourcePanel.tsx";
import { Notice } from "../../components/Notice.tsx";
import { formatConsentDate, formatMoment } from "./dates.ts";
import { PersonPanel } from "./PersonPanel.tsx";
import { StatusBadge, SuppressedBadge } from "./StatusBadge.tsx";
import type { FromList, ListState } from "./SubscriberListScreen.tsx";

const EVENT_WORDS = { subscribed: "Subscribed", unsubscribed: "Unsubscribed" } as const;

export function SubscriberDetailScreen() {
  const parsed = subscriberIdSchema.safeParse(useParams());
  const id = parsed.success ? parsed.data.id : null;
  const subscriber = useResource(id === null ? null : read("subscribers.read", { params: { id } }));
  const listSearch = (useLocation().state as FromList | null)?.listSearch ?? "";

  return (
    <div className="subscriber">
      <p className="back-link">
        <Link to={{ pathname: "..", search: listSearch }}>← All subscribers</Link>
      </p>
      {id === null ? <Notice tone="error">{SUBSCRIBER_TEXTS.notFound}</Notice> : null}
      {subscriber.error ? <Notice tone="error">{subscriber.error}</Notice> : null}
      {subscriber.loading && !subscriber.data ? (
        <p className="loading" role="status">
          Loading…
        </p>
      ) : null}
      {subscriber.data ? (
        <SubscriberView subscriber={subscriber.data} onChange={subscriber.reload} />
      ) : null}
    </div>
  );
}

function SubscriberView({
  subscriber,
  onChange,
}: {
  subscriber: SubscriberDetail;
  onChange: () => void;
}) {
  const me = useMe();
  return (
    <>
      <div className="screen-head subscriber-head">
        <h1>{subscriber.email}</h1>
        <StatusBadge status={subscriber.status} />
        <SuppressedBadge status={subscriber.status} suppressed={subscriber.suppressed} />
      </div>
      <div className="subscriber-layout">
        <PersonPanel
          subscriber={subscriber}
          editable={hasRole(me.role, "editor")}
          onSaved={onChange}
        />
        <section className="panel" aria-labelledby="consent-history">
          <h2 id="consent-history">Consent history</h2>
          <ol className="consent-history">
            {subscriber.events.map((event) => (
              <li key={`${event.at}-${event.event}`} className={`consent-${event.event}`}>
                <strong>{EVENT_WORDS[event.event]}</strong>
                <time dateTime={event.at}>{formatMoment(event.at)}</time>
                <span className="consent-via">{viaLabel(event.via)}</span>
                {event.consentSource ? (
                  <span className="consent-statement">
                    Consent: {event.consentSource}
                    {event.consentDate ? (
                      <>
                        , given{" "}
                        <time dateTime={event.consentDate}>
                          {formatConsentDate(event.consentDate)}
                        </time>
                      </>
                    ) : null}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
          {subscriber.events.length === 0 ? <p>No consent changes are recorded.</p> : null}
          {subscriber.imported ? (
            <p className="consent-imported">
              Imported from “{subscriber.imported.file}” on{" "}
              <time dateTime={subscriber.imported.importedAt}>
                {formatMoment(subscriber.imported.importedAt)}
              </time>
              . Consent statement: {subscriber.imported.consentSource}, given{" "}
              <time dateTime={subscriber.imported.consentDate}>
                {formatConsentDate(subscriber.imported.consentDate)}
              </time>
              .{subscriber.imported.doubleOptIn ? " Asked to confirm by e-mail." : ""}
            </p>
          ) : null}
        </section>
        <LeadSourcePanel source={subscriber.source} id="subscriber-source" />
        {hasRole(me.role, "editor") ? (
          <RequestActions
            subscriber={subscriber}
            canErase={hasRole(me.role, "owner")}
            onChange={onChange}
          />
        ) : null}
      </div>
    </>
  );
}

function RequestActions({
  subscriber,
  canErase,
  onChange,
}: {
  subscriber: SubscriberDetail;
  canErase: boolean;
  onChange: () => void;
}) {
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [erasing, setErasing] = useState(false);
  const navigate = useNavigate();

  async function erase(values: { email: string }) {
    await api.call("subscribers.erase", { params: { id: subscriber.id }, body: values });
    const state: ListState = { notice: SUBSCRIBER_TEXTS.erased(subscriber.email) };
    navigate("/subscribers", { state });
  }

  async function unsubscribe() {
    setBusy(true);
    try {
      await api.call("subscribers.unsubscribe", { params: { id: subscriber.id } });
      setOutcome({ tone: "success", text: SUBSCRIBER_TEXTS.unsubscribed });
      onChange();
    } catch (error) {
      setOutcome({
        tone: "error",
        text: error instanceof ApiError ? error.message : String(error),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel request-actions" aria-labelledby="on-request">
      <h2 id="on-request">On the person's request</h2>
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
      {subscriber.status !== "unsubscribed" ? (
        <div className="request-action">
          <p>Ends the subscription now. The history records it as done in the console.</p>
          <button type="button" className="button" onClick={unsubscribe} disabled={busy}>
            Unsubscribe
          </button>
        </div>
      ) : null}
      {canErase ? (
        <div className="request-action">
          <p>
            Deletes the address, its history and every e-mail to it. Only an unreadable record that
            the erasure was done stays.
          </p>
          <button type="button" className="button button-danger" onClick={() => setErasing(true)}>
            Erase completely…
          </button>
          <EraseDialog
            open={erasing}
            title="Erase this subscriber completely?"
            email={subscriber.email}
            erase={erase}
            onClose={() => setErasing(false)}
          >
            <p>
              Its subscription, its consent history and every e-mail to it, queued or sent, are
              deleted. This cannot be undone.
            </p>
            <p>
              What stays is a keyed hash of the address and the time: the address cannot be read
              back from it, but the firm can show the erasure was done if the person asks. If they
              subscribe again on the website, that is new consent and is accepted.
            </p>
          </EraseDialog>
        </div>
      ) : null}
    </section>
  );
}
