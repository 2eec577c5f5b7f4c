/**
 * The e-mail the test server wrote to its mailbox folder (MAILBOX_DIR, which
 * playwright.config.ts sets for the server and the tests alike; no SMTP).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import PostalMime from "postal-mime";

// Read when asked: playwright.config.ts sets it after this module is imported.
const mailbox = () => process.env.MAILBOX_DIR ?? "data/mail";

export interface MailboxMessage {
  to: string[];
  subject: string;
  text: string;
}

/**
 * Messages read so far, by file: the server writes each under a temporary
 * name and renames it once whole, so a file never changes after it appears,
 * and a poll parses only what is new since the last.
 */
const parsed = new Map<string, Promise<MailboxMessage>>();

async function parse(path: string): Promise<MailboxMessage> {
  const mail = await PostalMime.parse(readFileSync(path));
  return {
    to: (mail.to ?? []).map((address) => address.address ?? ""),
    subject: mail.subject ?? "",
    text: mail.text ?? "",
  };
}

/** Every message in the mailbox, newest first. */
export async function mailboxMessages(): Promise<MailboxMessage[]> {
  let files: string[];
  try {
    // Each file is named by the time it was written: newest first.
    files = readdirSync(mailbox())
      .filter((file) => file.endsWith(".eml"))
      .sort()
      .reverse();
  } catch {
    return [];
  }
  return Promise.all(
    files.map((file) => {
      const path = join(mailbox(), file);
      let message = parsed.get(path);
      if (!message) {
        message = parse(path);
        parsed.set(path, message);
      }
      return message;
    }),
  );
}

/** The text of every message. */
export async function mailboxTexts(): Promise<string[]> {
  return (await mailboxMessages()).map((message) => message.text);
}

/** The match of `pattern` in the newest message to `address` that has one, or undefined while there is none. */
export async function findInMail(address: string, pattern: RegExp): Promise<string | undefined> {
  for (const message of await mailboxMessages()) {
    if (!message.to.includes(address)) continue;
    const found = pattern.exec(message.text)?.[0];
    if (found) return found;
  }
  return undefined;
}

/** Like findInMail, waiting up to `limitMs` for the message to arrive. */
export async function waitForMail(
  address: string,
  pattern: RegExp,
  limitMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const found = await findInMail(address, pattern);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`No e-mail to ${address} matching ${pattern} arrived in ${limitMs} ms`);
    }
    await pause(100);
  }
}
