/**
 * A draft's ways out: a test to a few addresses (the editor's own to begin
 * with); who gets it (everyone active, or a segment by tags, counted as it
 * is chosen); "Send now" (after a confirmation naming them and their exact
 * number), "Schedule for"; and deleting the draft. Each saves the form
 * first when it has changes, so what goes out is what is on the screen.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type IssueDetail,
  type Segment,
  segmentLabel,
  segmentWords,
} from "../../../shared/admin/newsletter.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Notice } from "../../components/Notice.tsx";
import { RecipientsChoice } from "./RecipientsChoice.tsx";
import {
  activeSubscribers,
  EVERYONE,
  NOTHING_TICKED,
  type RecipientsValues,
  recipientsSchema,
  segmentOfChoice,
} from "./recipients.ts";
import { ScheduleForm } from "./ScheduleForm.tsx";
import { TestSendForm } from "./TestSendForm.tsx";

const NOT_SAVED = "The issue could not be saved: see the form for what to change.";

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
  const recipients = useForm<RecipientsValues>({
    resolver: zodResolver(recipientsSchema),
    defaultValues: EVERYONE,
  });
  const segment = segmentOfChoice(recipients.watch());
  const tags = useResource(read("subscribers.tags"));
  const topics = useResource(read("subscribers.topics"));
  const topicNames = new Map(topics.data?.items.map((topic) => [topic.id, topic.name]));
  // Counted as the choice changes, and again as the confirmation opens.
  const counted = useResource(
    segment === null
      ? null
      : read("newsletter.recipients", {
          query: segment ? { match: segment.match, tag: segment.tags, topic: segment.topics } : {},
        }),
  );
  const count = counted.loading ? undefined : counted.data?.count;
  const who = segmentLabel(segment ?? null, topicNames);

  let reach: string;
  if (segment === null) reach = NOTHING_TICKED;
  else if (counted.error) reach = `The subscribers could not be counted: ${counted.error}`;
  else if (count === undefined) reach = "Counting the subscribers…";
  else reach = `Goes to ${activeSubscribers(count)}.`;

  /** The segment chosen once the choice is complete, `false` (and the reason shown) when it is not. */
  async function chosenSegment(): Promise<Segment | undefined | false> {
    if (!(await recipients.trigger())) return false;
    return segmentOfChoice(recipients.getValues()) ?? undefined;
  }

  async function askToSend() {
    if ((await chosenSegment()) === false) return;
    const current = await saveFirst();
    setNotSaved(!current);
    if (!current) return;
    counted.reload();
    setConfirming("send");
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
        <h3>To subscribers</h3>
        <p className="send-panel__lead">
          One message to each, at the configured rate. You can pause or cancel while it goes out.
        </p>
        <RecipientsChoice
          form={recipients}
          tags={tags.data?.items}
          topics={topics.data?.items}
          reach={reach}
        />
        <button className="button button-primary" type="button" onClick={askToSend}>
          Send now…
        </button>
        {notSaved ? <Notice tone="error">{NOT_SAVED}</Notice> : null}
        <ScheduleForm saveFirst={saveFirst} chosenSegment={chosenSegment} onScheduled={onChanged} />
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
        confirmLabel={count === undefined ? "Send now" : `Send to ${activeSubscribers(count)}`}
        dismissLabel="Not yet"
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          const body = segment ? { segment } : {};
          onChanged(await api.call("newsletter.send", { params: { id: issue.id }, body }));
        }}
      >
        <p className="confirm-dialog-target">
          {count === undefined
            ? counted.loading
              ? "Counting the subscribers…"
              : `It goes to ${who}.`
            : `It goes to ${activeSubscribers(count)}${segment ? ` ${segmentWords(segment, topicNames)}` : ""}.`}
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
