/**
 * Reads one message from the bounce mailbox and tells whether it reports on
 * mail the site sent, and what it reports. Pure: it parses and reads, and
 * does no I/O.
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

const BOUNCE_WORDING =
  /mail delivery (?:failed|failure|subsystem|system)|created automatically by mail delivery software|this is the qmail-send program|delivery status notification \((?:failure|delay)\)|delivery has failed to these recipients|undeliverable:/i;

/**
 * The line after which a plain-text bounce quotes the returned message:
 * a row of dashes around words such as Exim's "This is a copy of the
 * message", qmail's "Below this line is a copy of the message" or Gmail's
 * "Original message", or Exchange's "Original message headers:".
 */
const QUOTE_MARKER =
  /^(?:-{2,}[^\n]*(?:copy of the message|original message|message header|original headers)[^\n]*|original message headers:[ \t]*)$/im;

/** An enhanced status code standing alone, not part of an address or a version number. */
const ENHANCED_STATUS = /(?<![\w.])([45]\.\d{1,3}\.\d{1,3})(?![\w.])/;

/** An SMTP reply code as servers quote it: three digits, then a space or a hyphen. */
const REPLY_CODE = /(?<![\w.])([45]\d\d)(?=[ -])/;

const ADDRESS_IN_TEXT = /[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/** Null when the message is not a delivery report or complaint (it must then be left alone by the caller). */
export async function readReport(raw: Buffer | string): Promise<DeliveryReport | null> {
  // A returned message stays a part of its own instead of being folded into
  // the report's text, so its headers can be read apart from the report's.
  const mail = await PostalMime.parse(raw, { forceRfc822Attachments: true });
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
    originalMessageId: original?.messageId?.trim() || null,
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
function mailboxOfTypedAddress(value: string | null): string | null {
  const match = /^rfc822\s*;\s*(.+)$/i.exec(value ?? "");
  return match?.[1] ? bareMailbox(match[1]) : null;
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
  const marker = QUOTE_MARKER.exec(body);
  const diagnostic = marker ? body.slice(0, marker.index) : body;
  if (!looksLikeBounce(mail, diagnostic)) return null;
  const original =
    attached ?? (marker ? await headersOf(body.slice(marker.index + marker[0].length)) : null);
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

/** The header block at the start of `quoted`, after any blank lines, read as a message's headers. */
function headersOf(quoted: string): Promise<Email> {
  const block = quoted.replace(/^\s*\n/, "").split(/\n[ \t]*\n/, 1)[0] ?? "";
  return PostalMime.parse(`${block}\n\n`);
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
  const named = diagnostic.match(ADDRESS_IN_TEXT) ?? [];
  return (
    named.map((address) => address.toLowerCase()).find((address) => !senders.has(address)) ?? null
  );
}

// --- Shared reading -------------------------------------------------------

function partOfType(mail: Email, mimeType: string): Attachment | undefined {
  return mail.attachments.find((part) => part.mimeType === mimeType);
}

/** The returned message, or its headers alone, where the report attaches it. */
async function attachedOriginal(mail: Email): Promise<Email | null> {
  const part = mail.attachments.find(
    ({ mimeType }) => mimeType === "message/rfc822" || mimeType === "text/rfc822-headers",
  );
  return part ? PostalMime.parse(part.content) : null;
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
    .filter((address) => address.includes("@"));
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
  return address.includes("@") ? address : null;
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
