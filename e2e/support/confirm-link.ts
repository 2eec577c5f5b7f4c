import type { ReceivedMail } from "../../test/support/smtp.ts";

/** The link in a confirmation e-mail. */
export function confirmLinkIn(mail: ReceivedMail | undefined): string {
  const href = /href="([^"]*\/subscribe\/confirm\?token=[^"]+)"/.exec(mail?.parsed.html ?? "")?.[1];
  if (!href) throw new Error("no confirmation link in the e-mail");
  return href.replace(/&amp;/g, "&");
}
