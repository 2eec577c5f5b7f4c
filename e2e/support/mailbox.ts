/**
 * The e-mail the test server wrote to its mailbox folder (MAILBOX_DIR, which
 * playwright.config.ts sets for the server and the tests alike; no SMTP).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import PostalMime from "postal-mime";

const MAILBOX = process.env.MAILBOX_DIR ?? "data/mail";

export interface MailboxMessage {
  to: string[];
  subject: string;
  text: string;
}

export async function mailboxMessages(): Promise<MailboxMessage[]> {
  let files: string[];
  try {
    files = readdirSync(MAILBOX).filter((file) => file.endsWith(".eml"));
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const mail = await PostalMime.parse(readFileSync(join(MAILBOX, file)));
      return {
        to: (mail.to ?? []).map((address) => address.address ?? ""),
        subject: mail.subject ?? "",
        text: mail.text ?? "",
      };
    }),
  );
}

/** The text of every message. */
export async function mailboxTexts(): Promise<string[]> {
  return (await mailboxMessages()).map((message) => message.text);
}

/** The first match of `pattern` in a message to `address`, or undefined while there is none. */
export async function findInMail(address: string, pattern: RegExp): Promise<string | undefined> {
  for (const message of await mailboxMessages()) {
    if (!message.to.includes(address)) continue;
    const found = pattern.exec(message.text)?.[0];
    if (found) return found;
  }
  return undefined;
}
