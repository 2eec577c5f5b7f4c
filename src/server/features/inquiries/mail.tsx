/**
 * The mail an inquiry makes: the firm's notification and, when
 * INQUIRY_ACK is on, the visitor's acknowledgement. The comments keep their
 * lines, indented under their label, so none of them can pass for a field of
 * its own. Queued inside the inquiry's own transaction. And the alarm the
 * owners get when the notification fails (sent by notification-alarm.ts).
 */

import { Fragment } from "react";
import { COLORS } from "../../../shared/design-tokens.ts";
import { INQUIRY_FIELDS, type InquiryField } from "../../../shared/inquiry.ts";
import type { Inquiry } from "../../../shared/schemas.ts";
import { SITE } from "../../../shared/site.ts";
import { EMAIL_FONT } from "../../platform/markdown/markdown.ts";
import {
  linesOf,
  MailFrame,
  MailHeading,
  MailLink,
  OneLine,
  oneLine,
  Paragraph,
} from "../../platform/outbox/layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { ROWS_IN_TEXT, renderMail } from "../../platform/outbox/render.ts";

export interface InquiryMailSettings {
  from: string;
  /** Where the firm reads its inquiries: each address gets a notification of its own. */
  inquiryTo: readonly string[];
  /** Whether the visitor gets an acknowledgement too. */
  acknowledge: boolean;
  /** The site's origin, under which the console's links are made. */
  publicOrigin: string;
}

const ORDER = Object.keys(INQUIRY_FIELDS) as InquiryField[];

/**
 * A field's value as the notification shows it: on one line unless the
 * field is multi-line, whose lines are kept as line breaks (the text part
 * indents them under the label).
 */
function ShownValue({ inquiry, field }: { inquiry: Inquiry; field: InquiryField }) {
  const value = inquiry[field] || "-";
  if (INQUIRY_FIELDS[field].kind !== "longtext") return oneLine(value);
  return linesOf(value).map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the lines are the value's, in order, and never move
    <Fragment key={index}>
      {index > 0 ? <br /> : null}
      {line}
    </Fragment>
  ));
}

const cell = {
  padding: "6px 0",
  fontFamily: EMAIL_FONT,
  fontSize: "15px",
  lineHeight: "1.5",
  color: COLORS.ink,
  verticalAlign: "top",
} as const;

/** The inquiry's fields, one row each; a multi-line value keeps its lines. */
function FieldTable({ inquiry }: { inquiry: Inquiry }) {
  return (
    <table
      {...ROWS_IN_TEXT}
      cellPadding={0}
      cellSpacing={0}
      style={{ borderCollapse: "collapse", width: "100%" }}
    >
      <tbody>
        {ORDER.map((field) => (
          <tr key={field}>
            <th
              scope="row"
              style={{ ...cell, textAlign: "left", paddingRight: "12px", whiteSpace: "nowrap" }}
            >
              {INQUIRY_FIELDS[field].label}
            </th>
            <td style={{ ...cell, whiteSpace: "pre-wrap" }}>
              <ShownValue inquiry={inquiry} field={field} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The firm's notification of inquiry `id` to one of its addresses, with a link to it in the console. */
export function inquiryNotification(
  inquiry: Inquiry,
  id: number,
  to: string,
  settings: Pick<InquiryMailSettings, "from" | "publicOrigin">,
): MailMessage {
  const name = oneLine(`${inquiry.firstName} ${inquiry.lastName}`);
  const company = inquiry.company ? `, ${oneLine(inquiry.company)}` : "";
  const subject = `New inquiry: ${inquiry.inquiryType} from ${name}${company}`;
  const url = consoleInquiryUrl(settings.publicOrigin, id);
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to,
    replyTo: { name, address: inquiry.email },
    headers: AUTO_SUBMITTED,
    subject,
    ...renderMail(
      <MailFrame title={subject}>
        <MailHeading>
          New inquiry: <OneLine value={inquiry.inquiryType} /> from{" "}
          <OneLine value={`${name}${company}`} />
        </MailHeading>
        <Paragraph>
          Reply to this e-mail to answer <OneLine value={name} />.{" "}
          <MailLink href={url}>Open it in the console</MailLink> to assign it, add notes or follow
          its status.
        </Paragraph>
        <FieldTable inquiry={inquiry} />
      </MailFrame>,
    ),
  };
}

export function inquiryAcknowledgement(
  inquiry: Inquiry,
  settings: Pick<InquiryMailSettings, "from" | "inquiryTo">,
): MailMessage {
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
    // The visitor's answer goes to the first of the firm's addresses.
    replyTo: { name: SITE.firmName, address: settings.inquiryTo[0] ?? settings.from },
    subject,
    ...renderMail(
      <MailFrame title={subject}>
        {[greeting, ...lines, `The ${SITE.shortName} team`].map((line) => (
          <Paragraph key={line}>{line}</Paragraph>
        ))}
      </MailFrame>,
    ),
  };
}

/** What the alarm tells of an inquiry: which one, and from whom. */
export interface UnnotifiedInquiry {
  id: number;
  receivedAt: string;
  inquiryType: string;
  firstName: string;
  lastName: string;
  company: string;
  /** The address its failed notification went to (null for a message no longer in the outbox). */
  notifiedAddress: string | null;
}

export type AlarmMailSettings = Pick<InquiryMailSettings, "from" | "publicOrigin">;

/** How much of the mail server's last answer the alarm quotes. */
const REASON_LIMIT = 300;

/** The console's page of one inquiry (the console is served under /admin). */
function consoleInquiryUrl(publicOrigin: string, id: number): string {
  return new URL(`/admin/inquiries/${id}`, publicOrigin).toString();
}

/**
 * The alarm an owner gets when the firm's notification of an inquiry
 * failed. It names the inquiry by its number, type, sender's name and
 * company, and links to it in the console. The sender's address, phone
 * number and message stay out: the alarm travels by a second route, chosen
 * to reach the owners, not to carry what visitors confide.
 */
export function notificationFailedAlarm(
  inquiry: UnnotifiedInquiry,
  to: string,
  reason: string,
  settings: AlarmMailSettings,
): MailMessage {
  const name = oneLine(`${inquiry.firstName} ${inquiry.lastName}`);
  const company = inquiry.company ? `, ${oneLine(inquiry.company)}` : "";
  const subject = `Not delivered: the notification of inquiry ${inquiry.id}`;
  const url = consoleInquiryUrl(settings.publicOrigin, inquiry.id);
  const where = inquiry.notifiedAddress ? ` to ${inquiry.notifiedAddress}` : "";
  const lead = `The website could not deliver its notification of a new inquiry${where}: nobody at the firm may know of it.`;
  const why = `The mail server's last answer: ${oneLine(reason).slice(0, REASON_LIMIT)}`;
  const advice =
    "Until the cause is put right, read new inquiries in the console. This alarm is sent once per inquiry.";
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to,
    headers: AUTO_SUBMITTED,
    subject,
    ...renderMail(
      <MailFrame title={subject}>
        <MailHeading>{subject}</MailHeading>
        <Paragraph>{lead}</Paragraph>
        <Paragraph>
          Inquiry {inquiry.id}: <OneLine value={inquiry.inquiryType} />, from{" "}
          <OneLine value={`${name}${company}`} />, received {inquiry.receivedAt}.{" "}
          <MailLink href={url}>Open it in the console</MailLink>.
        </Paragraph>
        <Paragraph>{why}</Paragraph>
        <Paragraph>{advice}</Paragraph>
      </MailFrame>,
    ),
  };
}

/** The settings that stay for the server's life; the sender and the addresses are read at each inquiry. */
export type FixedInquirySettings = Pick<InquiryMailSettings, "acknowledge" | "publicOrigin">;

/** The sender and the firm's addresses in force, read in the inquiry's transaction. */
export type InquirySenders = (
  trx: OutboxTransaction,
) => Promise<Pick<InquiryMailSettings, "from" | "inquiryTo">>;

export class InquiryMail {
  constructor(
    private readonly fixed: FixedInquirySettings,
    private readonly senders: InquirySenders,
  ) {}

  /**
   * Queues the firm's notification of inquiry `id`, one message to each of
   * its addresses (each its own bounce address), and the acknowledgement;
   * the outbox row of the notification to the first address, which the
   * inquiry names (ADR 042).
   */
  async queue(trx: OutboxTransaction, inquiry: Inquiry, id: number): Promise<number> {
    const settings = { ...this.fixed, ...(await this.senders(trx)) };
    const [first, ...others] = settings.inquiryTo;
    if (first === undefined) throw new Error("inquiries have no address to go to");
    const notification = await enqueueMail(
      trx,
      "inquiry-notification",
      inquiryNotification(inquiry, id, first, settings),
    );
    for (const to of others) {
      await enqueueMail(
        trx,
        "inquiry-notification",
        inquiryNotification(inquiry, id, to, settings),
      );
    }
    if (settings.acknowledge) {
      await enqueueMail(trx, "inquiry-acknowledgement", inquiryAcknowledgement(inquiry, settings));
    }
    return notification;
  }
}
