/**
 * Finding a person's messages in the mailbox folder, to delete them when
 * the person is erased (ADR 067). The folder keeps no index of its files:
 * each message's header says whom it concerns. Mail to the person names
 * them in To; the firm's notification of their inquiry names them in
 * Reply-To; and a message whose outbox row the erasure deleted has that
 * row's Message-ID. So every .eml file's header is read, a bounded piece
 * at a time. Reading the headers also finds the copies whose rows no longer
 * say whom they concerned (a notification's Reply-To goes with its body in
 * the retention purge), which a list of file names kept per row would miss.
 */
import { open, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { MESSAGE_SUFFIX } from "./transport.ts";

/** How much of a message is read for its header: the site's own headers are a few kilobytes. */
const HEADER_BYTES = 32 * 1024;

/** Which of the mailbox folder's messages concern a person erased. */
export interface PersonsMail {
  /** Their address: a message sent to it (To or Cc) is theirs. */
  sentTo?: string;
  /** Their address: a message answering to it (Reply-To, as the firm's notification of an inquiry) is theirs. */
  answeringTo?: string;
  /** The Message-IDs of outbox rows deleted with them. */
  messageIds?: readonly string[];
}

/** The header section of the message in `path`: up to its first empty line, within HEADER_BYTES. */
async function headerOf(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    // A header is ASCII (names are encoded words), so one byte is one character.
    const text = buffer.subarray(0, bytesRead).toString("latin1");
    const ends = [text.indexOf("\n\n"), text.indexOf("\n\r\n")].filter((at) => at !== -1);
    return ends.length > 0 ? text.slice(0, Math.min(...ends)) : text;
  } finally {
    await handle.close();
  }
}

/** The header's fields, each with its folded continuation lines joined. */
function fieldsOf(header: string): string[] {
  const fields: string[] = [];
  for (const raw of header.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const last = fields.length - 1;
    if ((line.startsWith(" ") || line.startsWith("\t")) && last >= 0) {
      fields[last] += line;
    } else {
      fields.push(line);
    }
  }
  return fields;
}

/** The addresses, lower-cased, that a header field's value names. */
function addressesIn(value: string): string[] {
  return value.split(",").map((mailbox) => {
    // `Name <address>` or a bare address; a comma inside a quoted name only
    // splits off a piece that names no address.
    const opening = mailbox.lastIndexOf("<");
    const closing = opening === -1 ? -1 : mailbox.indexOf(">", opening);
    const address = closing === -1 ? mailbox : mailbox.slice(opening + 1, closing);
    return address.trim().toLowerCase();
  });
}

const lowerCased = (address: string | undefined) => address?.trim().toLowerCase();

/** Whether the message whose header is `header` is one of `mail`. */
export function isPersonsMail(header: string, mail: PersonsMail): boolean {
  const sentTo = lowerCased(mail.sentTo);
  const answeringTo = lowerCased(mail.answeringTo);
  const messageIds = new Set(mail.messageIds ?? []);
  return fieldsOf(header).some((field) => {
    const colon = field.indexOf(":");
    if (colon === -1) return false;
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1);
    if (name === "to" || name === "cc") return addressesIn(value).some((a) => a === sentTo);
    if (name === "reply-to") return addressesIn(value).some((a) => a === answeringTo);
    if (name === "message-id") return messageIds.has(value.trim());
    return false;
  });
}

/**
 * Deletes the messages in the mailbox folder `dir` that are `mail`; answers
 * how many went. A folder that does not exist holds none.
 */
export async function removeMailboxCopiesOf(dir: string, mail: PersonsMail): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(MESSAGE_SUFFIX)) continue;
    const path = join(dir, name);
    try {
      if (!isPersonsMail(await headerOf(path), mail)) continue;
      await unlink(path);
      removed += 1;
    } catch (error) {
      // Gone since the listing: nothing left to delete.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return removed;
}
