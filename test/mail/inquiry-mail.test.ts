import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INQUIRY_FIELDS } from "../../src/shared/inquiry.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { mailTo } from "../support/mail-env.ts";
import { header, startSmtp, type TestSmtp } from "../support/smtp.ts";

const HOSTILE = {
  ...VALID_INQUIRY,
  company: 'Acme <b>"Bold"</b> & Sons',
  comments: "Hello <script>alert('x')</script>\nSecond line & more",
};

describe.each(ENGINES)("inquiry e-mails on $engine", (engine) => {
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

  it("notifies the firm with every field, the type in the subject and Reply-To the visitor", async () => {
    await post(t.app, session, "/api/v1/send-comment", HOSTILE);
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
      expect(mail.parsed.text).toContain(
        `${rule.label}: ${HOSTILE[field as keyof typeof HOSTILE]}`,
      );
    }
    expect(mail.parsed.html).toContain("Hello &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    expect(mail.parsed.html).toContain("Acme &lt;b&gt;&quot;Bold&quot;&lt;/b&gt; &amp; Sons");
    expect(mail.parsed.html).not.toMatch(/<script|<b>/);
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
