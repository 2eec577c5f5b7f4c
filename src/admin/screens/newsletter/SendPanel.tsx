/**
 * A draft's ways out: a test to a few addresses (the editor's own to begin
 * with), "Send now" (after a confirmation saying how many will get it),
 * "Schedule for", and deleting the draft. Each saves the form first when it
 * has changes, so what goes out is what is on the screen.
 */
import { useState } from "react";
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Notice } from "../../components/Notice.tsx";
import { ScheduleForm } from "./ScheduleForm.tsx";
import { TestSendForm } from "./TestSendForm.tsx";

const NOT_SAVED = "The issue could not be saved: see the form for what to change.";

const subscribers = (count: number) =>
  `${count.toLocaleString("en-GB")} active ${count === 1 ? "subscriber" : "subscribers"}`;

interface SendPanelProps {
  issue: IssueDetail;
  saveFirst(): Promise<IssueDetail | null>;
  /** The issue after a send or a schedule. */
  onChanged(issue: IssueDetail): void;
  onDeleted(): void;
}

export function SendPanel({ issue, saveFirst, onChanged, onDeleted }: SendPanelProps) {
  const [notSaved, setNotSaved] = useState(false);
  const [confirming, setConfirming] = useState<"send" | "delete" | null>(null);
  // How many would get it, counted as the confirmation opens.
  const stats = useResource(confirming === "send" ? read("subscribers.stats") : null);
  const active = stats.data?.active;

  async function askToSend() {
    const current = await saveFirst();
    setNotSaved(!current);
    if (current) setConfirming("send");
  }

  return (
    <section className="panel send-panel" aria-labelledby="send-title">
      <h2 id="send-title">Send</h2>

      <div className="send-panel__step">
        <h3>A test</h3>
        <p className="send-panel__lead">One copy to each address, exactly as subscribers get it.</p>
        <TestSendForm saveFirst={saveFirst} notSaved={NOT_SAVED} />
      </div>

      <div className="send-panel__step">
        <h3>To every subscriber</h3>
        <p className="send-panel__lead">
          One message to each active subscriber, at the configured rate. You can pause or cancel
          while it goes out.
        </p>
        <button className="button button-primary" type="button" onClick={askToSend}>
          Send now…
        </button>
        {notSaved ? <Notice tone="error">{NOT_SAVED}</Notice> : null}
        <ScheduleForm saveFirst={saveFirst} onScheduled={onChanged} />
      </div>

      <div className="send-panel__step">
        <button
          className="button button-quiet send-panel__delete"
          type="button"
          onClick={() => setConfirming("delete")}
        >
          Delete this draft…
        </button>
      </div>

      <ConfirmDialog
        open={confirming === "send"}
        title={`Send “${issue.title}” now?`}
        confirmLabel={active === undefined ? "Send now" : `Send to ${subscribers(active)}`}
        dismissLabel="Not yet"
        onClose={() => setConfirming(null)}
        onConfirm={async () =>
          onChanged(await api.call("newsletter.send", { params: { id: issue.id }, body: {} }))
        }
      >
        <p className="confirm-dialog-target">
          {active === undefined
            ? stats.loading
              ? "Counting the subscribers…"
              : "It goes to every active subscriber."
            : `It goes to ${subscribers(active)}.`}
        </p>
        <p>
          Each gets one message, at the configured rate; once sent, the issue is published in the
          archive on the site. A message that has gone cannot be called back.
        </p>
      </ConfirmDialog>

      <ConfirmDialog
        open={confirming === "delete"}
        title="Delete this draft?"
        confirmLabel="Delete the draft"
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          await api.call("newsletter.delete", { params: { id: issue.id } });
          onDeleted();
        }}
      >
        <p className="confirm-dialog-target">{issue.title}</p>
        <p>Its text is deleted for good. Nothing was sent, so no subscriber notices.</p>
      </ConfirmDialog>
    </section>
  );
}
