/**
 * A banner over every screen while no mail server is set: the site still
 * queues every message, but only writes it to a folder on the server, so
 * nobody receives it. Owners are told the folder and what to set; the
 * others, whom the server does not tell the folder, whom to tell.
 */
import type { Me } from "../../shared/admin/auth.ts";

export function MailNotSentBanner({ mailNotSent }: Pick<Me, "mailNotSent">) {
  if (!mailNotSent) return null;
  return (
    <div className="shell-banner" role="status">
      {mailNotSent.folder ? (
        <p>
          <strong>Mail is not being sent:</strong> no mail server is set, so every message is
          written to <code>{mailNotSent.folder}</code> on the server instead. Set{" "}
          <code>SMTP_URL</code> to the firm's mail server and restart the site.
        </p>
      ) : (
        <p>
          <strong>Mail is not being sent:</strong> no mail server is set, so messages from the site
          (inquiry notifications, Insight issues, invitations) stay on the server and reach nobody.
          Tell an owner of the console.
        </p>
      )}
    </div>
  );
}
