/**
 * An address setting read as a mailbox (RFC 5322): `"Name" <address>`,
 * `Name <address>` or an address alone, parsed by nodemailer's own parser,
 * the one that reads the headers it sends. The text is bounded before it is
 * parsed, so no value costs more than a few microseconds.
 */
import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";

/** An address and the name shown with it ("" for none). */
export interface Mailbox {
  name: string;
  address: string;
}

/** Room for the longest address (254) and a long name; more is a wrong value, not a mailbox. */
export const MAILBOX_MAX_LENGTH = 512;

const addressRule = z.email();

/**
 * The one mailbox `text` names, or why it names none: a name without an
 * address, two addresses, a group, or an address that is not one.
 */
export function parseMailbox(text: string): Mailbox | { refusal: string } {
  if (text.length > MAILBOX_MAX_LENGTH) {
    return {
      refusal: `is ${text.length} characters long; a mailbox has at most ${MAILBOX_MAX_LENGTH}`,
    };
  }
  const parsed = addressparser(text);
  if (parsed.length !== 1) {
    return { refusal: `names ${parsed.length} mailboxes; write one` };
  }
  const [entry] = parsed;
  if (!entry || "group" in entry) {
    return { refusal: "is a group of addresses; write one mailbox" };
  }
  if (entry.address === "") {
    return {
      refusal:
        'has no address; write "Name" <address> (in an env file, inside single quotes) or an address alone',
    };
  }
  if (!addressRule.safeParse(entry.address).success) {
    return { refusal: `holds ${JSON.stringify(entry.address)}, which is not an e-mail address` };
  }
  return { name: entry.name.trim(), address: entry.address };
}

/** A From header of a name and an address; the name quoted, so a comma in it cannot split it. */
export function fromHeader({ name, address }: Mailbox): string {
  return name === "" ? address : `"${name.replace(/["\\]/g, "\\$&")}" <${address}>`;
}
