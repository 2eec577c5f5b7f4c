import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type DeliveryReport, readReport } from "./reports.ts";

// Published samples (test/fixtures/reports/SOURCES.md says where each comes from).
const FIXTURES = new URL("../../../../test/fixtures/reports/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES));

type Expected = Omit<DeliveryReport, "text"> & { textStartsWith: string };

const REPORTS: Record<string, Expected> = {
  "rfc3464-simple.eml": {
    kind: "soft",
    status: "4.0.0",
    recipient: "louisl@larry.example.net",
    addressedTo: ["owner-info-mime@cs.utk.edu"],
    originalReturnPath: null,
    originalMessageId: null,
    textStartsWith: "The original message was received at Sat, 2 Jul 1994",
  },
  "rfc3464-multi-recipient.eml": {
    kind: "hard",
    status: "5.0.0",
    recipient: "arathib@vnet.example.net",
    addressedTo: ["owner-ups-mib@cs.utk.edu"],
    originalReturnPath: null,
    originalMessageId: null,
    textStartsWith: "----- The following addresses had delivery problems -----",
  },
  "rfc3464-gateway.eml": {
    kind: "hard",
    status: "5.0.0",
    // The gateway names the recipient in its own address type, not as a mailbox.
    recipient: null,
    addressedTo: ["owner-ups-mib@cs.utk.edu"],
    originalReturnPath: null,
    originalMessageId: null,
    textStartsWith: "Invalid address - nair_s",
  },
  "rfc3464-delayed.eml": {
    kind: "soft",
    status: "4.0.0",
    recipient: "thomas@de-montfort.example.net",
    addressedTo: ["owner-info-mime@cs.utk.edu"],
    originalReturnPath: null,
    originalMessageId: null,
    textStartsWith: "The following message:",
  },
  "postfix-dsn.eml": {
    kind: "hard",
    status: "5.2.1",
    recipient: "kijitora@example.jp",
    addressedTo: ["bounces+abc.def@mail.firm.example"],
    originalReturnPath: "bounces+abc.def@mail.firm.example",
    originalMessageId: "<20150213024748.CEEDB20C16@2jo.example.jp>",
    textStartsWith: "This is the mail system at host 2jo.example.jp.",
  },
  "exchange-2007-ndr.eml": {
    kind: "hard",
    status: "5.1.1",
    recipient: "mikeneko@example.co.jp",
    addressedTo: ["kijitora@example.jp"],
    originalReturnPath: null,
    originalMessageId: null,
    textStartsWith: "Delivery has failed to these recipients or distribution lists:",
  },
  "rfc5965-simple.eml": {
    kind: "complaint",
    status: null,
    // The quoted To is "<Undisclosed Recipients>", no mailbox.
    recipient: null,
    addressedTo: ["abuse@example.net"],
    originalReturnPath: null,
    originalMessageId: "8787KJKJ3K4J3K4J3K4J3.mail@example.net",
    textStartsWith: "This is an email abuse report for an email message received from IP",
  },
  "rfc5965-full.eml": {
    kind: "complaint",
    status: null,
    recipient: "user@example.com",
    addressedTo: ["abuse@example.net"],
    originalReturnPath: null,
    // As printed, a blank line ends the quoted headers before the Message-ID.
    originalMessageId: null,
    textStartsWith: "This is an email abuse report for an email message received from IP",
  },
  "yahoo-arf.eml": {
    kind: "complaint",
    status: null,
    recipient: "someuser@example.net",
    addressedTo: ["fbl-abuse@example.com"],
    originalReturnPath: "support@example.com",
    originalMessageId: "<WEB8daf12e7d45340df91f4dc4d66fb19f7@web8>",
    textStartsWith: "This is an email abuse report for an email message received from example.com",
  },
  "aol-arf.eml": {
    kind: "complaint",
    status: null,
    // AOL writes "redacted@aol.com" in place of the reader's address.
    recipient: null,
    addressedTo: ["fbl-abuse@example.com"],
    originalReturnPath: "support@example.com",
    originalMessageId: "<WEB8e6e5512333834e5792b28af4d88dc308@web>",
    textStartsWith: "This is an email abuse report for an email message with the message-id of",
  },
  "microsoft-jmrp.eml": {
    kind: "complaint",
    status: null,
    recipient: "somerecipient@example.net",
    addressedTo: ["fbl-abuse@example.com"],
    originalReturnPath: "support@example.com",
    originalMessageId: "<WEBfb154d7a03bb483591c696782382d12e@WEB>",
    textStartsWith: "complaint about message from 24.64.1.1",
  },
  "exim-bounce.eml": {
    kind: "hard",
    status: "5.1.1",
    recipient: "kijitora@example.jp",
    addressedTo: ["shironeko@example.jp"],
    originalReturnPath: "shironeko@example.jp",
    originalMessageId: "<E1X58pB-0004bW-2s@marutamachi.example.org>",
    textStartsWith: "This message was created automatically by mail delivery software.",
  },
  "qmail-bounce.eml": {
    kind: "hard",
    status: "5.1.1",
    recipient: "userunknown@example.jp",
    addressedTo: ["kijitora@example.jp"],
    originalReturnPath: "shironeko@example.jp",
    originalMessageId: null,
    textStartsWith: "Hi. This is the qmail-send program",
  },
  "gmail-failure.eml": {
    kind: "hard",
    status: "5.1.1",
    recipient: "userunknown@example.jp",
    addressedTo: ["sender@example.com"],
    originalReturnPath: "sender@example.com",
    originalMessageId: "<D992C2C3-F175-4C4D-97E2-53A90E4E5BF5@gmail.com>",
    textStartsWith: "Delivery to the following recipient failed permanently:",
  },
  "gmail-delay.eml": {
    kind: "soft",
    status: "4.2.2",
    recipient: "kijitora@example.jp",
    addressedTo: ["sender@example.com"],
    originalReturnPath: "sender@example.com",
    originalMessageId: "<A4D6026C-0699-460F-9F86-C2A5CB4BE6CE@gmail.com>",
    textStartsWith: "This is an automatically generated Delivery Status Notification",
  },
  "exchange-online-ndr.eml": {
    kind: "hard",
    status: "5.1.1",
    recipient: "kijitora@example.net",
    addressedTo: [],
    originalReturnPath: "sironeko@example.jp",
    originalMessageId: "<c302b7e8-9b97-40ef-90eb-313cc6c25133@NYAAAAN.example.org>",
    textStartsWith: "Delivery has failed to these recipients or groups:",
  },
};

const NOT_REPORTS = {
  "ordinary-mail.eml": "an ordinary mail",
  "forwarded-message.eml": "a mail that forwards another as an attachment",
  "out-of-office.eml": "an out-of-office reply",
  "sendmail-relayed-dsn.eml": "a notification that the message was relayed",
  "dmarc-failure-report.eml": "a DMARC authentication failure report",
};

async function read(name: string): Promise<DeliveryReport> {
  const report = await readReport(fixture(name));
  if (!report) throw new Error(`${name} was not read as a report`);
  return report;
}

describe("readReport on published reports", () => {
  it.each(Object.entries(REPORTS))("reads %s", async (name, expected) => {
    const { text, ...report } = await read(name);
    const { textStartsWith, ...fields } = expected;
    expect(report).toEqual(fields);
    expect(text.startsWith(textStartsWith)).toBe(true);
  });

  it.each(Object.keys(REPORTS))(
    "reads %s the same with CRLF line ends, as IMAP gives it",
    async (name) => {
      const crlf = fixture(name).toString("latin1").replace(/\r?\n/g, "\r\n");
      expect(await readReport(Buffer.from(crlf, "latin1"))).toEqual(
        await readReport(fixture(name)),
      );
    },
  );

  it("lists the per-message bounce address the report was sent to", async () => {
    expect((await read("postfix-dsn.eml")).addressedTo).toContain(
      "bounces+abc.def@mail.firm.example",
    );
  });

  it("keeps a plain-text bounce's text to what comes before the returned message", async () => {
    const { text } = await read("exim-bounce.eml");
    expect(text).toContain("550 5.1.1 <kijitora@example.jp>... User Unknown");
    expect(text).not.toContain("This is a copy of the message");
    expect(text).not.toContain("test from Exim 1");
  });

  it("cuts the text to 4,000 characters", async () => {
    const long = fixture("rfc3464-simple.eml")
      .toString()
      .replace("Message will be deleted from queue", "x".repeat(5_000));
    const report = await readReport(long);
    expect(report?.text).toHaveLength(4_000);
    expect(report?.text.startsWith("The original message was received")).toBe(true);
  });

  it("knows a plain-text bounce by its wording when the mail system signs it otherwise", async () => {
    const signed = fixture("exim-bounce.eml")
      .toString()
      .replace(
        "From: Mail Delivery System <Mailer-Daemon@marutamachi.example.org>",
        "From: Mail Delivery System <mail@marutamachi.example.org>",
      );
    expect(await readReport(signed)).toMatchObject({ kind: "hard", status: "5.1.1" });
  });
});

describe("readReport on what is not a report", () => {
  it.each(Object.entries(NOT_REPORTS))("gives null for %s (%s)", async (name) => {
    expect(await readReport(fixture(name))).toBeNull();
  });

  it("gives null for a notice in a bounce's words that gives no code and returns no message", async () => {
    const notice = [
      "From: Mail Delivery System <MAILER-DAEMON@mail.example.net>",
      "To: reader@example.com",
      "Subject: Mail delivery failed",
      "",
      "Some of your messages could not be delivered. Sign in to release them.",
      "",
    ].join("\r\n");
    expect(await readReport(notice)).toBeNull();
  });
});
