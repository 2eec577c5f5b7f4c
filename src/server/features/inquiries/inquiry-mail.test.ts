import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { mailTo } from "../../../../test/support/mail-env.ts";
import { unwrapped } from "../../../../test/support/mail-text.ts";
import { header, startSmtp, type TestSmtp } from "../../../../test/support/smtp.ts";
import { INQUIRY_FIELDS } from "../../../shared/inquiry.ts";
import { SITE } from "../../../shared/site.ts";
import { inquiryAcknowledgement, inquiryNotification } from "./mail.tsx";

const HOSTILE = {
  ...VALID_INQUIRY,
  company: 'Acme <b>"Bold"</b> & Sons',
  comments: "Hello <script>alert('x')</script>\nSecond line & more",
};

/** The lines of a text part that start at its left edge, where the fields are. */
const leftEdgeLines = (text: string) => text.split(/\r?\n/).filter((line) => /^\S/.test(line));

describe("a value that reaches a one-line position with line breaks", () => {
  // The field rules refuse line breaks in these fields; the templates fold
  // whatever gets past them anyway (a row written before the rules, a new caller).
  const forged = {
    ...VALID_INQUIRY,
    firstName: "Eve\r\nBcc: victim@example.com",
    company: "Acme\nEmail: forged@evil.example",
    jobTitle: "Chief\u2028Executive",
    phoneNumber: "+1 555\u0085 0100",
  };
  const settings = {
    from: "site@firm.example",
    inquiryTo: ["inbox@firm.example"],
    publicOrigin: "https://firm.example",
  };

  it("is folded to one line in the notification's text and HTML parts", () => {
    const mail = inquiryNotification(forged, 7, "inbox@firm.example", settings);
    expect(mail.text).toContain("First name: Eve Bcc: victim@example.com\n");
    expect(mail.text).toContain("Company: Acme Email: forged@evil.example\n");
    expect(mail.text).toContain("Job title: Chief Executive\n");
    expect(mail.text).toContain("Phone number: +1 555 0100\n");
    expect(leftEdgeLines(mail.text).filter((line) => /^(Bcc|Email):/.test(line))).toEqual([
      `Email: ${VALID_INQUIRY.email}`,
    ]);
    expect(mail.html).toContain(">Eve Bcc: victim@example.com<");
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it("is never wrapped onto a line's start in the notification's text part", () => {
    // Long enough that wrapping at 78 would set "Email:" at the start of a line.
    const padded = { ...forged, lastName: `${"Hopper ".repeat(8)}Email: forged@evil.example` };
    const mail = inquiryNotification(padded, 7, "inbox@firm.example", settings);
    expect(leftEdgeLines(mail.text).filter((line) => /^(Bcc|Email):/.test(line))).toEqual([
      `Email: ${VALID_INQUIRY.email}`,
    ]);
  });

  it("is folded to one line in the acknowledgement", () => {
    const mail = inquiryAcknowledgement(forged, settings);
    expect(mail.text.split("\n")[0]).toBe("Dear Eve Bcc: victim@example.com,");
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});

describe.each(SQLITE_ONLY)("inquiry e-mails on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let session: Session;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        INQUIRY_TO: "inbox@firm.example",
        MAIL_FROM: "Website <site@firm.example>",
        INQUIRY_ACK: "true",
      }),
    );
    session = await openSession(t.app);
  });
  afterEach(() => {
    smtp.received.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("notifies the firm with every field, the type in the subject, Reply-To the visitor and a link to the inquiry in the console", async () => {
    const answer = await post(t.app, session, "/api/v1/send-comment", HOSTILE);
    const { id } = answer.json() as { id: number };
    const [mail] = (await smtp.waitFor(2)).filter((m) =>
      m.recipients.includes("inbox@firm.example"),
    );
    if (!mail) throw new Error("no notification received");
    expect(mail.parsed.subject).toBe(
      `New inquiry: ${HOSTILE.inquiryType} from Grace Hopper, Acme <b>"Bold"</b> & Sons`,
    );
    expect(mail.parsed.from?.address).toBe("site@firm.example");
    expect(mail.parsed.replyTo?.[0]).toMatchObject({
      address: HOSTILE.email,
      name: "Grace Hopper",
    });
    for (const [field, rule] of Object.entries(INQUIRY_FIELDS)) {
      if (rule.kind === "longtext") continue;
      expect(mail.parsed.text).toContain(
        `${rule.label}: ${HOSTILE[field as keyof typeof HOSTILE]}`,
      );
    }
    expect(mail.parsed.text).toContain(
      "Comments:\n  Hello <script>alert('x')</script>\n  Second line & more",
    );
    expect(mail.parsed.html).toContain("Hello &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;");
    expect(mail.parsed.html).toContain("Acme &lt;b&gt;&quot;Bold&quot;&lt;/b&gt; &amp; Sons");
    expect(mail.parsed.html).not.toMatch(/<script|<b>/);
    const consoleUrl = `${t.config.PUBLIC_ORIGIN}/admin/inquiries/${id}`;
    expect(unwrapped(mail.parsed.text)).toContain(
      `Open it in the console [${consoleUrl}] to assign it, add notes or follow its status.`,
    );
    expect(mail.parsed.html).toContain(`href="${consoleUrl}"`);
    // The inquiry names the notification that told the firm of it.
    const stored = await t.database.db
      .selectFrom("inquiries")
      .innerJoin("outbox", "outbox.id", "inquiries.notification_outbox_id")
      .select("outbox.kind")
      .where("inquiries.id", "=", id)
      .executeTakeFirst();
    expect(stored).toEqual({ kind: "inquiry-notification" });
  });

  it("indents a multi-line comment under its label: readable, and no line of it poses as a field", async () => {
    const comments =
      "Thank you for reading.\r\n\r\nEmail: forged@evil.example\rBcc: victim@example.com\nLast line";
    const response = await post(t.app, session, "/api/v1/send-comment", {
      ...VALID_INQUIRY,
      comments,
    });
    expect(response.statusCode).toBe(200);
    const [mail] = (await smtp.waitFor(2)).filter((m) =>
      m.recipients.includes("inbox@firm.example"),
    );
    const text = mail?.parsed.text?.replace(/\r\n/g, "\n") ?? "";
    expect(text).toContain(
      [
        "Comments:",
        "  Thank you for reading.",
        "",
        "  Email: forged@evil.example",
        "  Bcc: victim@example.com",
        "  Last line",
      ].join("\n"),
    );
    // Above the fields, the heading and the paragraph; from the first field on, only labels.
    const lines = leftEdgeLines(text);
    const labels = Object.values(INQUIRY_FIELDS).map((rule) => rule.label);
    const first = lines.indexOf(`${labels[0]}: ${VALID_INQUIRY.firstName}`);
    expect(lines[0]).toBe(
      `New inquiry: ${VALID_INQUIRY.inquiryType} from Grace Hopper, Harvard Computation Lab`,
    );
    expect(unwrapped(lines.slice(1, first).join("\n"))).toMatch(
      /^Reply to this e-mail to answer Grace Hopper\. Open it in the console \[\S+\] to assign it, add notes or follow its status\.$/,
    );
    expect(lines.slice(first).map((line) => line.split(":")[0])).toEqual([
      ...labels,
      SITE.firmName,
    ]);
  });

  it("acknowledges the visitor in the site's voice when INQUIRY_ACK=true", async () => {
    await post(t.app, session, "/api/v1/send-comment", VALID_INQUIRY);
    const [ack] = (await smtp.waitFor(2)).filter((m) => m.recipients.includes(VALID_INQUIRY.email));
    if (!ack) throw new Error("no acknowledgement received");
    expect(ack.parsed.subject).toBe("We received your inquiry, Grace");
    expect(ack.parsed.text).toContain(`about ${VALID_INQUIRY.inquiryType}`);
    expect(header(ack, "reply-to")).toContain("inbox@firm.example");
  });
});
