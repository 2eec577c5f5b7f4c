/**
 * Reads one message from the bounce mailbox and tells whether it reports on
 * mail the site sent, and what it reports. Pure: it parses and reads, and
 * does no I/O. Anyone can write to the bounce mailbox, so a message is held
 * to bounds before it is parsed (REPORT_LIMITS), and every scan of its text
 * goes through it once: no pattern here can backtrack. The bounce mailbox
 * runs it on a worker thread (report-worker.ts).
 *
 * Four shapes are understood: the standard delivery status notification
 * (a `message/delivery-status` part), the standard feedback report (a
 * `message/feedback-report` part), Microsoft's junk-mail reports (the
 * complained-of message alone, marked with its original recipient), and
 * the plain-text bounces that quote the returned message after a marker
 * line. Anything else is not a report and is left to the caller.
 */
import PostalMime, { type Attachment, addressParser, type Email } from "postal-mime";

export type ReportKind = "hard" | "soft" | "complaint";

export interface DeliveryReport {
  kind: ReportKind;
  /** Enhanced status code (RFC 3463) such as "5.1.1", or the SMTP reply code when only that is given; null for a complaint. */
  status: string | null;
  /** The address that failed or complained, lower-cased; null when the report does not say. */
  recipient: string | null;
  /** Addresses the report itself was sent to: To, Delivered-To, X-Original-To, X-Envelope-To (lower-cased, in that order, no duplicates). A per-message bounce address such as bounces+TOKEN@mail.firm.example is found here. */
  addressedTo: string[];
  /** The original message's Return-Path, where the report quotes the original headers (ARF complaints do). */
  originalReturnPath: string | null;
  /** The original message's Message-ID, where quoted. */
  originalMessageId: string | null;
  /** The report's human-readable part (or the diagnostic), trimmed to at most 4,000 characters, for the console. */
  text: string;
}

type BounceKind = Exclude<ReportKind, "complaint">;

/**
 * What a message may be and still be read. A report is a few kilobytes; one
 * that returns the whole original message, with its pictures, rarely passes
 * a megabyte. The standard allows 998 characters a line, and the parts of a
 * report with its returned message nest five or six deep.
 */
export const REPORT_LIMITS = {
  /** The whole message, in bytes. */
  messageBytes: 4 * 1024 * 1024,
  /** One line, in bytes. */
  lineBytes: 64 * 1024,
  /** Every header block of the message together (each part's, the returned message's), in bytes. */
  headerBytes: 256 * 1024,
  /** MIME parts within parts. */
  nestingDepth: 32,
} as const;

/** Why a message was not read: over a bound, or not parseable as mail. Its text is for the console. */
export class UnreadableMessage extends Error {
  override name = "UnreadableMessage";
}

/** The longest address there can be (RFC 5321's limit on a path); anything longer is no address. */
const ADDRESS_LIMIT = 254;

/** A Message-ID longer than a header line may be is none the site wrote. */
const MESSAGE_ID_LIMIT = 998;

/** What a report says, before what every report shares is added. */
interface Finding {
  kind: ReportKind;
  status: string | null;
  recipient: string | null;
  text: string;
}

/** One recipient's failure in a delivery status notification. */
interface RecipientFailure {
  kind: BounceKind;
  status: string | null;
  recipient: string | null;
  diagnostic: string | null;
}

/** The `name: value` fields of a block, names lower-cased; a name may repeat. */
type Fields = Map<string, string[]>;

const TEXT_LIMIT = 4_000;

const ADDRESSED_TO_HEADERS = ["to", "delivered-to", "x-original-to", "x-envelope-to"];

/** Actions that tell of a delivery that went on, not of a failure. */
const NOT_FAILED_ACTIONS = new Set(["delivered", "relayed", "expanded"]);

/**
 * Feedback types that are no complaint: a reader taking mail back out of
 * the spam folder, and a receiver's notice that authentication failed,
 * which says nothing of what the recipient wants.
 */
const NOT_COMPLAINTS = new Set(["not-spam", "auth-failure"]);

/** Where Microsoft's junk-mail reports keep the address that complained. */
const JUNK_MAIL_RECIPIENT_HEADER = "x-hmxmroriginalrecipient";

const MAIL_SYSTEM_SENDER = /^(?:mailer-daemon|postmaster)@/i;

const PARSER_LIMITS = {
  maxNestingDepth: REPORT_LIMITS.nestingDepth,
  maxHeadersSize: REPORT_LIMITS.headerBytes,
} as const;

const BOUNCE_WORDING =
  /mail delivery (?:failed|failure|subsystem|system)|created automatically by mail delivery software|this is the qmail-send program|delivery status notification \((?:failure|delay)\)|delivery has failed to these recipients|undeliverable:/i;

/**
 * Words that, on a line starting with two dashes, mark where a plain-text
 * bounce quotes the returned message: Exim's "This is a copy of the
 * message", qmail's "Below this line is a copy of the message", Gmail's
 * "Original message". Exchange writes "Original message headers:" alone.
 */
const QUOTE_MARKER_WORDS = [
  "copy of the message",
  "original message",
  "message header",
  "original headers",
];
const EXCHANGE_QUOTE_MARKER = "original message headers:";

/** An enhanced status code standing alone, not part of an address or a version number. */
const ENHANCED_STATUS = /(?<![\w.])([45]\.\d{1,3}\.\d{1,3})(?![\w.])/;

/** An SMTP reply code as servers quote it: three digits, then a space or a hyphen. */
const REPLY_CODE = /(?<![\w.])([45]\d\d)(?=[ -])/;

/** What an address's local part may hold besides letters and digits, as written in a server's words. */
const LOCAL_PART_SYMBOLS = new Set(".!#$%&'*+/=?^`{|}~-_");

/**
 * Null when the message is not a delivery report or complaint (it must then
 * be left alone by the caller). Throws UnreadableMessage for a message over
 * REPORT_LIMITS or one that cannot be parsed as mail.
 */
export async function readReport(raw: Uint8Array | string): Promise<DeliveryReport | null> {
  const bytes = typeof raw === "string" ? Buffer.from(raw) : raw;
  const overBound = boundRefusal(bytes);
  if (overBound) throw new UnreadableMessage(overBound);
  // A returned message stays a part of its own instead of being folded into
  // the report's text, so its headers can be read apart from the report's.
  const mail = await parseMail(bytes, { forceRfc822Attachments: true });
  const original = await attachedOriginal(mail);
  const deliveryStatus = partOfType(mail, "message/delivery-status");
  if (deliveryStatus) return toReport(mail, original, fromDeliveryStatus(mail, deliveryStatus));
  const feedback = partOfType(mail, "message/feedback-report");
  if (feedback) return toReport(mail, original, fromFeedbackReport(mail, feedback, original));
  const junkMailRecipient = original && firstHeader(original, JUNK_MAIL_RECIPIENT_HEADER);
  if (junkMailRecipient) {
    return toReport(mail, original, fromJunkMailReport(mail, junkMailRecipient));
  }
  return fromPlainBounce(mail, original);
}

function toReport(
  mail: Email,
  original: Email | null,
  finding: Finding | null,
): DeliveryReport | null {
  if (!finding) return null;
  return {
    kind: finding.kind,
    status: finding.status,
    recipient: finding.recipient,
    addressedTo: addressedTo(mail),
    originalReturnPath: original?.returnPath ?? null,
    originalMessageId: messageIdOf(original),
    text: finding.text.trim().slice(0, TEXT_LIMIT),
  };
}

// --- Delivery status notifications --------------------------------------

function fromDeliveryStatus(mail: Email, part: Attachment): Finding | null {
  const failures = fieldGroups(textOf(part))
    .map(recipientFailure)
    .filter((failure) => failure !== null);
  // One report can speak of several recipients. The site sends each message
  // to one, so there is one to act on; where a report names more, the
  // hardest failure is the one that counts.
  const failure = failures.find(({ kind }) => kind === "hard") ?? failures[0];
  if (!failure) return null;
  return {
    kind: failure.kind,
    status: failure.status,
    recipient: failure.recipient,
    text: readableText(mail) || failure.diagnostic || mail.subject || "",
  };
}

/** Null for a group that tells of no failure (the per-message fields, a delivery). */
function recipientFailure(fields: Fields): RecipientFailure | null {
  const action = firstWord(firstField(fields, "action"));
  if (action && NOT_FAILED_ACTIONS.has(action)) return null;
  const diagnostic = firstField(fields, "diagnostic-code");
  const status = enhancedStatusIn(firstField(fields, "status")) ?? statusIn(diagnostic ?? "");
  const kind = bounceKind(action, status);
  if (!kind) return null;
  // The address as the site gave it when the report keeps it, since that is
  // the one the site knows; an alias it was expanded to is not.
  const recipient =
    mailboxOfTypedAddress(firstField(fields, "original-recipient")) ??
    mailboxOfTypedAddress(firstField(fields, "final-recipient"));
  return { kind, status, recipient, diagnostic };
}

function bounceKind(action: string | null, status: string | null): BounceKind | null {
  if (action === "delayed" || status?.startsWith("4")) return "soft";
  if (status?.startsWith("5") || action === "failed") return "hard";
  return null;
}

/** The mailbox of an `rfc822; someone@example.com` field; null for other address types. */
export function mailboxOfTypedAddress(value: string | null): string | null {
  if (value?.slice(0, 6).toLowerCase() !== "rfc822") return null;
  const afterType = value.slice(6).trimStart();
  return afterType.startsWith(";") ? bareMailbox(afterType.slice(1)) : null;
}

// --- Feedback reports -----------------------------------------------------

function fromFeedbackReport(mail: Email, part: Attachment, original: Email | null): Finding | null {
  const fields = fieldsOf(textOf(part));
  const feedbackType = firstField(fields, "feedback-type")?.toLowerCase();
  if (feedbackType && NOT_COMPLAINTS.has(feedbackType)) return null;
  const redactions = fields.get("redacted-address") ?? [];
  const candidates = [
    bareMailbox(firstField(fields, "original-rcpt-to") ?? ""),
    ...(original ? addressesIn(original, "to") : []),
  ];
  const recipient =
    candidates.find((address) => address !== null && !isRedacted(address, redactions)) ?? null;
  return {
    kind: "complaint",
    status: null,
    recipient,
    text: readableText(mail) || mail.subject || "",
  };
}

/**
 * Whether a provider replaced the address's local part before quoting it;
 * the report then lists what it wrote instead (`redacted`, `redacted@`).
 */
function isRedacted(address: string, redactions: string[]): boolean {
  const localPart = address.slice(0, address.lastIndexOf("@"));
  return redactions.some((mark) => mark.replace(/@$/, "").toLowerCase() === localPart);
}

function fromJunkMailReport(mail: Email, originalRecipient: string): Finding {
  return {
    kind: "complaint",
    status: null,
    recipient: bareMailbox(originalRecipient),
    text: readableText(mail) || mail.subject || "",
  };
}

// --- Plain-text bounces ---------------------------------------------------

async function fromPlainBounce(
  mail: Email,
  attached: Email | null,
): Promise<DeliveryReport | null> {
  const body = withNewlines(mail.text ?? "");
  const marker = quoteMarkerIn(body);
  const diagnostic = marker ? body.slice(0, marker.index) : body;
  if (!looksLikeBounce(mail, diagnostic)) return null;
  const original =
    attached ?? (marker ? await headersOf(body.slice(marker.index + marker.line.length)) : null);
  const status = statusIn(diagnostic);
  // Wording alone is what a phishing mail imitates; a real bounce also
  // gives a code or returns the message.
  if (!status && !original) return null;
  return toReport(mail, original, {
    // A bounce that gives no code (a retry time running out) is taken as
    // temporary: only a code says the address is gone.
    kind: status?.startsWith("5") ? "hard" : "soft",
    status,
    recipient: failedRecipient(mail, diagnostic, original),
    text: diagnostic,
  });
}

function looksLikeBounce(mail: Email, diagnostic: string): boolean {
  return (
    MAIL_SYSTEM_SENDER.test(mail.from?.address ?? "") ||
    BOUNCE_WORDING.test(`${mail.subject ?? ""}\n${diagnostic}`)
  );
}

/**
 * Where a plain-text bounce starts quoting the returned message: the first
 * line that starts with two dashes and names the copy, or Exchange's line.
 * Read line by line, each line once.
 */
export function quoteMarkerIn(body: string): { index: number; line: string } | null {
  for (let start = 0; start <= body.length; ) {
    const newline = body.indexOf("\n", start);
    const end = newline < 0 ? body.length : newline;
    const line = body.slice(start, end);
    if (isQuoteMarker(line.toLowerCase())) return { index: start, line };
    if (newline < 0) break;
    start = newline + 1;
  }
  return null;
}

function isQuoteMarker(lowerLine: string): boolean {
  if (lowerLine.startsWith("--")) {
    return QUOTE_MARKER_WORDS.some((words) => lowerLine.includes(words));
  }
  if (!lowerLine.startsWith(EXCHANGE_QUOTE_MARKER)) return false;
  for (let position = EXCHANGE_QUOTE_MARKER.length; position < lowerLine.length; position += 1) {
    if (lowerLine[position] !== " " && lowerLine[position] !== "\t") return false;
  }
  return true;
}

/** The header block at the start of `quoted`, after any blank lines, read as a message's headers. */
function headersOf(quoted: string): Promise<Email> {
  const block = quoted.replace(/^\s*\n/, "").split(/\n[ \t]*\n/, 1)[0] ?? "";
  return parseMail(`${block}\n\n`);
}

/**
 * The address a plain-text bounce names as failed: the one Exim and Gmail
 * declare in X-Failed-Recipients, else the first address in the diagnostic
 * that is neither the report's own nor the original sender's.
 */
function failedRecipient(mail: Email, diagnostic: string, original: Email | null): string | null {
  const declared = addressesIn(mail, "x-failed-recipients")[0];
  if (declared) return declared;
  const senders = new Set([
    ...addressedTo(mail),
    ...addressesIn(mail, "from"),
    ...(original
      ? [...addressesIn(original, "return-path"), ...addressesIn(original, "from")]
      : []),
  ]);
  return (
    addressesInText(diagnostic)
      .map((address) => address.toLowerCase())
      .find((address) => address.length <= ADDRESS_LIMIT && !senders.has(address)) ?? null
  );
}

/**
 * The addresses written in a server's words, in order: a local part, an @,
 * and a domain of two labels or more. Found from each @ outwards, so every
 * character is looked at a bounded number of times, however the text runs.
 */
export function addressesInText(text: string): string[] {
  const found: string[] = [];
  // Where the next address may start: after the last one found.
  let from = 0;
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    if (at < from) continue;
    let start = at;
    while (start > from && isLocalPartChar(text.charCodeAt(start - 1))) start -= 1;
    const end = domainEnd(text, at + 1);
    if (start === at || end < 0) continue;
    found.push(text.slice(start, end));
    from = end;
  }
  return found;
}

/** Where a domain of two labels or more starting at `start` ends; -1 when none starts there. */
function domainEnd(text: string, start: number): number {
  let labels = 0;
  let end = -1;
  for (let position = start; ; ) {
    let labelEnd = position;
    while (labelEnd < text.length && isDomainChar(text.charCodeAt(labelEnd))) labelEnd += 1;
    if (labelEnd === position) break;
    labels += 1;
    if (labels >= 2) end = labelEnd;
    if (text[labelEnd] !== ".") break;
    position = labelEnd + 1;
  }
  return end;
}

function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isLocalPartChar(code: number): boolean {
  return isAsciiLetterOrDigit(code) || LOCAL_PART_SYMBOLS.has(String.fromCharCode(code));
}

function isDomainChar(code: number): boolean {
  return isAsciiLetterOrDigit(code) || code === 45;
}

// --- Shared reading -------------------------------------------------------

function partOfType(mail: Email, mimeType: string): Attachment | undefined {
  return mail.attachments.find((part) => part.mimeType === mimeType);
}

/**
 * Null when the message is within REPORT_LIMITS' size and line length,
 * else why not. One pass over the bytes; the header and nesting bounds are
 * the parser's own (PARSER_LIMITS), counted as it goes.
 */
export function boundRefusal(bytes: Uint8Array): string | null {
  if (bytes.length > REPORT_LIMITS.messageBytes) {
    return `It is ${megabytes(bytes.length)}, over the ${megabytes(REPORT_LIMITS.messageBytes)} a report may be.`;
  }
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(10, start);
    const end = newline < 0 ? bytes.length : newline;
    if (end - start > REPORT_LIMITS.lineBytes) {
      return `It has a line longer than ${REPORT_LIMITS.lineBytes.toLocaleString("en")} bytes.`;
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  return null;
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toLocaleString("en", { maximumFractionDigits: 1 })} MB`;
}

/** postal-mime's parse, held to REPORT_LIMITS; what it refuses is an UnreadableMessage. */
async function parseMail(
  raw: Uint8Array | ArrayBuffer | string,
  options: { forceRfc822Attachments?: boolean } = {},
): Promise<Email> {
  try {
    return await PostalMime.parse(raw, { ...options, ...PARSER_LIMITS });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UnreadableMessage(`It cannot be read as mail: ${detail}.`, { cause: error });
  }
}

/** The returned message, or its headers alone, where the report attaches it. */
async function attachedOriginal(mail: Email): Promise<Email | null> {
  const part = mail.attachments.find(
    ({ mimeType }) => mimeType === "message/rfc822" || mimeType === "text/rfc822-headers",
  );
  return part ? parseMail(part.content) : null;
}

function addressedTo(mail: Email): string[] {
  return [...new Set(ADDRESSED_TO_HEADERS.flatMap((name) => addressesIn(mail, name)))];
}

/** Every mailbox in every header of that name, lower-cased. */
function addressesIn(mail: Email, headerName: string): string[] {
  return mail.headers
    .filter(({ key }) => key === headerName)
    .flatMap(({ value }) => addressParser(value, { flatten: true }))
    .map(({ address }) => address?.trim().toLowerCase() ?? "")
    .filter((address) => address.includes("@") && address.length <= ADDRESS_LIMIT);
}

/** The Message-ID a quoted original carries; null when none, or one longer than a line may be. */
function messageIdOf(original: Email | null): string | null {
  const messageId = original?.messageId?.trim();
  return messageId && messageId.length <= MESSAGE_ID_LIMIT ? messageId : null;
}

function firstHeader(mail: Email, headerName: string): string | null {
  return mail.headers.find(({ key }) => key === headerName)?.value.trim() || null;
}

/** `someone@example.com` from `<someone@example.com>` or a bare address; null without an @. */
function bareMailbox(value: string): string | null {
  const address = value
    .trim()
    .replace(/^<(.*)>$/, "$1")
    .trim()
    .toLowerCase();
  return address.includes("@") && address.length <= ADDRESS_LIMIT ? address : null;
}

/** The report's human-readable part: the text the parser kept outside the report's own parts. */
function readableText(mail: Email): string {
  return mail.text?.trim() ?? "";
}

function textOf(part: Attachment): string {
  return typeof part.content === "string" ? part.content : new TextDecoder().decode(part.content);
}

/** The enhanced status code in a text, else the SMTP reply code, else null. */
function statusIn(text: string): string | null {
  return enhancedStatusIn(text) ?? REPLY_CODE.exec(text)?.[1] ?? null;
}

/** The enhanced status code (5.1.1) in a server's words, when they give one. */
export function enhancedStatusIn(text: string | null): string | null {
  return ENHANCED_STATUS.exec(text ?? "")?.[1] ?? null;
}

function firstWord(value: string | null): string | null {
  return value?.split(/\s/, 1)[0]?.toLowerCase() || null;
}

// --- Field blocks ---------------------------------------------------------
// The fields of delivery-status and feedback-report parts are written like a
// message's header fields, in groups separated by blank lines: one for the
// message, then one for each recipient.

function fieldGroups(content: string): Fields[] {
  return withNewlines(content)
    .split(/\n[ \t]*\n/)
    .map(fieldsOf)
    .filter((fields) => fields.size > 0);
}

function fieldsOf(block: string): Fields {
  const fields: Fields = new Map();
  const unfolded = withNewlines(block).replace(/\n[ \t]+/g, " ");
  for (const line of unfolded.split("\n")) {
    const match = /^([^\s:]+)[ \t]*:(.*)$/.exec(line);
    if (!match?.[1]) continue;
    const name = match[1].toLowerCase();
    fields.set(name, [...(fields.get(name) ?? []), (match[2] ?? "").trim()]);
  }
  return fields;
}

function firstField(fields: Fields, name: string): string | null {
  return fields.get(name)?.[0] || null;
}

function withNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
