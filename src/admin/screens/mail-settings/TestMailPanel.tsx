/** "Send a test mail": a short mail to the signed-in owner, from the sender saved now. */
import { useId, useState } from "react";
import { api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

export function TestMailPanel() {
  const titleId = useId();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  async function send() {
    setSending(true);
    setOutcome(null);
    try {
      const { message } = await api.call("mailSettings.testMail", { body: {} });
      setOutcome({ tone: "success", text: message });
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="panel mail-test" aria-labelledby={titleId}>
      <h2 id={titleId}>Test mail</h2>
      <p>
        Save first, then send yourself a short mail: it leaves like every other mail, with the
        settings saved, so you see how the sender reads in your own inbox.
      </p>
      <div>
        <button type="button" className="button" onClick={send} disabled={sending}>
          {sending ? "Sending…" : "Send a test mail"}
        </button>
      </div>
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
    </section>
  );
}
