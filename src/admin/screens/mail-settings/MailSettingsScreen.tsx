/**
 * Mail settings (owners only): the sender, where inquiries go, the
 * newsletter's rate, double opt-in and the welcome's text. Each shows
 * whether it comes from the server's settings or was set here, with the way
 * back to the server's; a save is used by the next mail on every server.
 * A test mail to oneself shows how the saved sender reads.
 */
import { MAIL_SETTINGS_LABEL } from "../../../shared/admin/mail-settings.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { MailSettingsForm } from "./MailSettingsForm.tsx";
import { TestMailPanel } from "./TestMailPanel.tsx";
import "./mail-settings.css";

export default function MailSettingsScreen() {
  const {
    data: answer,
    setData: setAnswer,
    error: loadFailure,
    reload,
  } = useResource(read("mailSettings.read"));

  return (
    <div className="mail-settings">
      <div className="screen-head">
        <h1>{MAIL_SETTINGS_LABEL}</h1>
        <p className="screen-lead">
          Who the website's mail comes from, where inquiries go, and how Insight is sent. A setting
          not changed here follows the server's settings. A save is used by the next mail.
        </p>
      </div>
      {loadFailure ? <Notice tone="error">{loadFailure}</Notice> : null}
      {answer ? (
        <div className="mail-settings__layout">
          <MailSettingsForm answer={answer} onWritten={setAnswer} onReload={reload} />
          <TestMailPanel />
        </div>
      ) : loadFailure ? null : (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
    </div>
  );
}
