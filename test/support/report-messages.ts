/**
 * The four shapes of report the bounce mailbox reads (ADR 032), written as
 * the receiving servers write them, about whatever the test says: a
 * delivery status notification (Postfix), a feedback report (Yahoo), a
 * plain-text bounce (Exim) and a junk-mail report (Microsoft). Each quotes
 * the original message's headers, with the Return-Path and Message-ID the
 * test gives, as a real one quotes the copy it is about.
 */

export interface ReportAbout {
  /** The address the report says failed or complained. */
  recipient: string;
  /** Where it is sent: the plain bounce address, or a message's signed one. */
  to: string;
  /** The Return-Path the quoted original carried, if any. */
  returnPath?: string;
  /** The quoted original's Message-ID, if any. */
  messageId?: string;
  /** Tells this report apart in the mailbox. */
  subject: string;
  /** The status a delivery status notification gives: 5.1.1 unless said; a 4.x.x one is delayed. */
  status?: string;
}

export type ReportShape = "dsn" | "arf" | "plain-bounce" | "junk-mail-report";

export const REPORT_SHAPES: readonly ReportShape[] = [
  "dsn",
  "arf",
  "plain-bounce",
  "junk-mail-report",
];

/** The report as the receiving server writes it, CRLF line ends. */
export function reportMessage(shape: ReportShape, about: ReportAbout): string {
  return WRITERS[shape](about).join("\r\n");
}

const WRITERS: Record<ReportShape, (about: ReportAbout) => string[]> = {
  dsn: (about) => [
    "From: Mail Delivery System <MAILER-DAEMON@mx.readers.example>",
    `To: ${about.to}`,
    `Subject: ${about.subject}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="dsn"',
    "",
    "--dsn",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "This is the mail system at host mx.readers.example.",
    "",
    `<${about.recipient}>: host mx.readers.example said: 550 5.1.1 User unknown`,
    "",
    "--dsn",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.readers.example",
    "",
    `Final-Recipient: rfc822; ${about.recipient}`,
    `Original-Recipient: rfc822;${about.recipient}`,
    `Action: ${(about.status ?? "5").startsWith("4") ? "delayed" : "failed"}`,
    `Status: ${about.status ?? "5.1.1"}`,
    "",
    "--dsn",
    "Content-Type: text/rfc822-headers",
    "",
    ...quotedHeaders(about),
    "",
    "--dsn--",
    "",
  ],
  arf: (about) => [
    "From: Yahoo! Mail AntiSpam Feedback <feedback@arf.mail.yahoo.com>",
    `To: ${about.to}`,
    `Subject: ${about.subject}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="arf"',
    "",
    "--arf",
    "Content-Type: text/plain",
    "",
    "This is an email abuse report for an email message received from IP 192.0.2.1.",
    "",
    "--arf",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: Yahoo!-Mail-Feedback/2.0",
    "Version: 1",
    `Original-Rcpt-To: ${about.recipient}`,
    "",
    "--arf",
    "Content-Type: message/rfc822",
    "Content-Disposition: inline",
    "",
    ...quotedHeaders(about),
    "",
    "This month's Insight.",
    "",
    "--arf--",
    "",
  ],
  "plain-bounce": (about) => [
    "From: Mail Delivery System <Mailer-Daemon@mx.readers.example>",
    `To: ${about.to}`,
    `Subject: ${about.subject}`,
    `X-Failed-Recipients: ${about.recipient}`,
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "This message was created automatically by mail delivery software.",
    "",
    "A message that you sent could not be delivered to one or more of its",
    "recipients. This is a permanent error. The following address(es) failed:",
    "",
    `  ${about.recipient}`,
    `    SMTP error from remote mail server after RCPT TO:<${about.recipient}>:`,
    "    550 5.1.1 User unknown",
    "",
    "------ This is a copy of the message, including all the headers. ------",
    "",
    ...quotedHeaders(about),
    "",
    "This month's Insight.",
    "",
  ],
  "junk-mail-report": (about) => [
    "From: staff@hotmail.com",
    `To: ${about.to}`,
    `Subject: ${about.subject}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="jmr"',
    "",
    "--jmr",
    "Content-Type: message/rfc822",
    "Content-Disposition: inline",
    "",
    `X-HmXmrOriginalRecipient: ${about.recipient}`,
    ...quotedHeaders(about),
    "",
    "This month's Insight.",
    "",
    "--jmr--",
    "",
  ],
};

function quotedHeaders({ recipient, returnPath, messageId }: ReportAbout): string[] {
  return [
    ...(returnPath ? [`Return-Path: <${returnPath}>`] : []),
    "From: The Firm <insight@firm.example>",
    `To: ${recipient}`,
    "Subject: Insight: November",
    "Date: Fri, 27 Nov 2026 10:00:00 +0000",
    ...(messageId ? [`Message-ID: ${messageId}`] : []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
  ];
}

/** A bounce whose parts sit `depth` multiparts deep, about `recipient`: past the bound, a message made to stop a parser. */
export function nestedReport(depth: number, { recipient, to, subject }: ReportAbout): string {
  const lines = [
    "From: Mail Delivery System <MAILER-DAEMON@mx.readers.example>",
    `To: ${to}`,
    `Subject: ${subject}`,
    "MIME-Version: 1.0",
  ];
  for (let level = 0; level < depth; level += 1) {
    lines.push(`Content-Type: multipart/mixed; boundary="b${level}"`, "", `--b${level}`);
  }
  lines.push("Content-Type: text/plain", "", `550 5.1.1 <${recipient}>: User unknown`, "");
  for (let level = depth - 1; level >= 0; level -= 1) lines.push(`--b${level}--`, "");
  return lines.join("\r\n");
}
