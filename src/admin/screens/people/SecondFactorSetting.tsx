/**
 * The owner's switch: require a second factor of everyone. While it is on,
 * people without one can only set it up (under Your account).
 */
import { useId, useState } from "react";
import { api, read } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";

export function SecondFactorSettingPanel() {
  const setting = useResource(read("settings.secondFactor.read"));
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const checkboxId = useId();

  async function change(required: boolean) {
    setSaving(true);
    setOutcome(null);
    try {
      await api.call("settings.secondFactor.save", { body: { required } });
      setOutcome({
        tone: "success",
        text: required
          ? "A second factor is now required. People without one are asked to set it up."
          : "A second factor is now optional.",
      });
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    } finally {
      setSaving(false);
      setting.reload();
    }
  }

  return (
    <section className="panel setting" aria-labelledby={`${checkboxId}-title`}>
      <h2 id={`${checkboxId}-title`}>Sign-in security</h2>
      {setting.error ? <Notice tone="error">{setting.error}</Notice> : null}
      <div className="checkbox-field">
        <input
          id={checkboxId}
          type="checkbox"
          checked={setting.data?.required ?? false}
          disabled={!setting.data || saving}
          aria-describedby={`${checkboxId}-hint`}
          onChange={(event) => change(event.target.checked)}
        />
        <label htmlFor={checkboxId}>Require a second factor for everyone</label>
      </div>
      <p className="field-hint" id={`${checkboxId}-hint`}>
        People without an authenticator app set up can then only reach Your account, to set one up.
        Set up your own first.
      </p>
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
    </section>
  );
}
