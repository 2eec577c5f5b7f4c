/**
 * The e-mails the site sends, each as plain text and HTML. Every value a
 * visitor typed is escaped in the HTML part, and folded to one line where it
 * goes into a header or a one-line position of the text part; the comments
 * keep their lines, indented under their label, so none of them can pass for
 * a field of its own.
 */
import escapeHtml from "escape-html";
import { COLORS } from "../../shared/design-tokens.ts";
import { INQUIRY_FIELDS, type Inquiry, type InquiryField } from "../../shared/inquiry.ts";
import { SITE } from "../../shared/site.ts";
import { type MailMessage, newMessageId } from "./message.ts";

export interface MailSettings {
  from: string;
  inquiryTo: string;
}

/** Folds line breaks and any other control character (U+0085 breaks lines too) to spaces. */
const oneLine = (value: string) => value.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** A multi-line value's lines, whichever line breaks it was typed with. */
const linesOf = (value: string) => value.split(/\r\n|[\n\r\u2028\u2029\u0085]/);

function layout(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:${COLORS.paperWarm};font-family:Arial,Helvetica,sans-serif;color:${COLORS.ink}">
<div style="max-width:600px;margin:0 auto;background:${COLORS.paper};border-top:6px solid ${COLORS.accent};padding:32px">
${body}
<p style="margin-top:32px;font-size:13px;color:${COLORS.inkSoft}">${escapeHtml(SITE.firmName)}</p>
</div></body></html>`;
}

const paragraph = (text: string) =>
  `<p style="line-height:1.6;margin:0 0 16px">${escapeHtml(text)}</p>`;

const ORDER = Object.keys(INQUIRY_FIELDS) as InquiryField[];

/** A field's value as the notification shows it: on one line unless the field is multi-line. */
function shownValue(inquiry: Inquiry, field: InquiryField): string {
  const value = inquiry[field] || "-";
  return INQUIRY_FIELDS[field].kind === "longtext" ? value : oneLine(value);
}

/** "Label: value", or a multi-line value below its label, each line indented. */
function textField(inquiry: Inquiry, field: InquiryField): string {
  const { label, kind } = INQUIRY_FIELDS[field];
  const value = shownValue(inquiry, field);
  if (kind !== "longtext") return `${label}: ${value}`;
  return [`${label}:`, ...linesOf(value).map((line) => (line ? `  ${line}` : ""))].join("\n");
}

export function inquiryNotification(inquiry: Inquiry, settings: MailSettings): MailMessage {
  const name = oneLine(`${inquiry.firstName} ${inquiry.lastName}`);
  const company = inquiry.company ? `, ${oneLine(inquiry.company)}` : "";
  const subject = `New inquiry: ${inquiry.inquiryType} from ${name}${company}`;
  const text = [
    `A visitor sent an inquiry through the website. Reply to this e-mail to answer ${name}.`,
    "",
    ...ORDER.map((field) => textField(inquiry, field)),
  ].join("\n");
  const rows = ORDER.map(
    (field) =>
      `<tr><th style="text-align:left;vertical-align:top;padding:6px 12px 6px 0;white-space:nowrap">${escapeHtml(
        INQUIRY_FIELDS[field].label,
      )}</th><td style="padding:6px 0;white-space:pre-wrap">${escapeHtml(shownValue(inquiry, field))}</td></tr>`,
  ).join("\n");
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: settings.inquiryTo,
    replyTo: { name, address: inquiry.email },
    subject,
    text,
    html: layout(
      subject,
      `<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(subject)}</h1>
${paragraph(`Reply to this e-mail to answer ${name}.`)}
<table style="border-collapse:collapse;font-size:15px">${rows}</table>`,
    ),
  };
}

export function inquiryAcknowledgement(inquiry: Inquiry, settings: MailSettings): MailMessage {
  const greeting = `Dear ${oneLine(inquiry.firstName)},`;
  const lines = [
    `thank you for writing to ${SITE.firmName}. We have received your inquiry about ${inquiry.inquiryType}.`,
    "A partner will read it and reply to you personally, usually within two business days.",
    "If anything changes in the meantime, simply reply to this e-mail.",
  ];
  const subject = `We received your inquiry, ${oneLine(inquiry.firstName)}`;
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: { name: oneLine(`${inquiry.firstName} ${inquiry.lastName}`), address: inquiry.email },
    replyTo: { name: SITE.firmName, address: settings.inquiryTo },
    subject,
    text: [greeting, "", ...lines, "", `The ${SITE.shortName} team`].join("\n"),
    html: layout(
      subject,
      [greeting, ...lines, `The ${SITE.shortName} team`].map(paragraph).join("\n"),
    ),
  };
}

/** RFC 2369 and RFC 8058 headers: mail clients offer a one-click unsubscribe. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

export function welcome(
  email: string,
  unsubscribeUrl: string,
  settings: MailSettings,
): MailMessage {
  const subject = `Welcome to Insight from ${SITE.firmName}`;
  const lines = [
    "Thank you for subscribing to Insight.",
    "Once a month we send practical notes on data, cloud and machine learning from the people doing the work: what worked, what did not, and what we would do again.",
    "Your first issue arrives with the next edition.",
  ];
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: email,
    subject,
    headers: unsubscribeHeaders(unsubscribeUrl),
    text: [
      ...lines,
      "",
      `The ${SITE.shortName} team`,
      "",
      `To stop receiving Insight, open: ${unsubscribeUrl}`,
    ].join("\n"),
    html: layout(
      subject,
      `${lines.map(paragraph).join("\n")}
${paragraph(`The ${SITE.shortName} team`)}
<p style="font-size:13px;color:${COLORS.inkSoft}">You receive this because ${escapeHtml(email)} subscribed on our website.
<a href="${escapeHtml(unsubscribeUrl)}" style="color:${COLORS.accentInk}">Unsubscribe</a>.</p>`,
    ),
  };
}

/**
 * Double opt-in (NEWSLETTER_DOUBLE_OPT_IN): asks the person behind a new
 * subscription to confirm their address. Not a list message: it carries no
 * unsubscribe headers, since nothing is sent to an address that does not confirm.
 */
export function subscriptionConfirmation(
  email: string,
  confirmUrl: string,
  validHours: number,
  settings: MailSettings,
): MailMessage {
  const subject = "Please confirm your subscription to Insight";
  const lead = `Someone, hopefully you, asked to receive Insight, the monthly newsletter of ${SITE.firmName}, at ${oneLine(email)}. To start receiving it, open this link and confirm:`;
  const expiry = `The link works for ${validHours} hours. If you did not ask for Insight, ignore this e-mail: without a confirmation, nothing more is sent to you.`;
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: email,
    subject,
    text: [lead, "", confirmUrl, "", expiry, "", `The ${SITE.shortName} team`].join("\n"),
    html: layout(
      subject,
      `${paragraph(lead)}
<p style="margin:0 0 16px"><a href="${escapeHtml(confirmUrl)}" style="color:${COLORS.accentInk}">Confirm my subscription</a></p>
${paragraph(expiry)}
${paragraph(`The ${SITE.shortName} team`)}`,
    ),
  };
}

const ACCOUNT_LINK_TEXTS = {
  invite: {
    subject: `You are invited to the ${SITE.shortName} website console`,
    lead: `You have been given an account on the console of ${SITE.firmName}'s website. Open this link to choose your password:`,
    expiry: "The link works once, within seven days.",
  },
  reset: {
    subject: `Set a new password for the ${SITE.shortName} website console`,
    lead: "Someone asked to set a new password for your console account. If it was you, open this link:",
    expiry:
      "The link works once, within one hour. If you did not ask, ignore this e-mail: your password stays as it is.",
  },
} as const;

/** An invitation or a password reset: a single-use link to set a password. */
export function accountLink(
  purpose: keyof typeof ACCOUNT_LINK_TEXTS,
  to: string,
  link: string,
  settings: MailSettings,
): MailMessage {
  const { subject, lead, expiry } = ACCOUNT_LINK_TEXTS[purpose];
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to,
    subject,
    text: [lead, "", link, "", expiry].join("\n"),
    html: layout(
      subject,
      `${paragraph(lead)}
<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="color:${COLORS.accentInk}">Set your password</a></p>
${paragraph(expiry)}`,
    ),
  };
}
