/**
 * Messages made to hurt the bounce mailbox's reader, read in this thread so
 * their processor time can be measured: each grows in the way that made a
 * pattern backtrack (a long line of dashes, a long run of address
 * characters, a typed address padded with spaces) or that a parser must
 * bound (parts nested deeper and deeper, a header block larger and larger),
 * and four times the input must take about four times the time. A message
 * over a bound is refused with the sentence the console shows.
 */
import { describe, expect, it } from "vitest";
import { expectLinear } from "../../../../test/support/growth.ts";
import { nestedReport } from "../../../../test/support/report-messages.ts";
import {
  addressesInText,
  mailboxOfTypedAddress,
  quoteMarkerIn,
  REPORT_LIMITS,
  readReport,
} from "./reports.ts";
import { domainOf } from "./sending-health-console.ts";

const HEAD = [
  "From: Mail Delivery System <MAILER-DAEMON@mx.readers.example>",
  "To: bounces@mail.firm.example",
  "Subject: Mail delivery failed: returning message to sender",
  "MIME-Version: 1.0",
];

/** A plain-text bounce whose words are `diagnostic`. */
function plainBounce(diagnostic: string): string {
  return [
    ...HEAD,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "This message was created automatically by mail delivery software.",
    "",
    "550 5.1.1 <reader@readers.example>: Recipient address rejected: User unknown",
    diagnostic,
    "",
  ].join("\r\n");
}

/** A delivery status notification whose recipient field is `finalRecipient`. */
function dsn(finalRecipient: string): string {
  return [
    ...HEAD,
    'Content-Type: multipart/report; report-type=delivery-status; boundary="r"',
    "",
    "--r",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--r",
    "Content-Type: message/delivery-status; charset=utf-8",
    "",
    "Reporting-MTA: dns; mx.readers.example",
    "",
    `Final-Recipient: ${finalRecipient}`,
    "Action: failed",
    "Status: 5.1.1",
    "",
    "--r--",
    "",
  ].join("\r\n");
}

/** A bounce whose parts sit `depth` multiparts deep. */
const nested = (depth: number) =>
  nestedReport(depth, {
    recipient: "reader@readers.example",
    to: "bounces@mail.firm.example",
    subject: "Mail delivery failed",
  });

/** A plain-text bounce under a header block of about `bytes` bytes. */
function withHeaders(bytes: number): string {
  const filler = `X-Filler: ${"a".repeat(70)}`;
  const count = Math.ceil(bytes / (filler.length + 2));
  return [...Array.from({ length: count }, () => filler), plainBounce("")].join("\r\n");
}

/** A typed address of spaces ended by a line separator, which `.` does not match: what backtracked. */
const paddedTypedAddress = (size: number) => `rfc822;${" ".repeat(size)}\u2028`;

describe("the reports' scans take time in step with their input", () => {
  it("finds the quote marker after a long line of dashes", async () => {
    await expectLinear((size) => `${"-".repeat(size)}\n-- original message --`, quoteMarkerIn);
  });

  it("finds the addresses in a long run of address characters", async () => {
    await expectLinear(
      (size) => `${"a.".repeat(size)}@ ${"b".repeat(size)}@example`,
      addressesInText,
    );
  });

  it("reads a typed address padded with spaces", async () => {
    await expectLinear(paddedTypedAddress, mailboxOfTypedAddress);
  });

  it("finds the domain of an address full of @ and spaces", async () => {
    await expectLinear((size) => `${"@".repeat(size)}${" ".repeat(size)}x`, domainOf);
  });
});

describe("a whole message takes time in step with its size", () => {
  // Each message is read whole, as the worker reads it, at sizes whose
  // larger one still fits REPORT_LIMITS: a refusal would end the read early
  // and prove nothing, and fails the test.
  it("with a long line of dashes", async () => {
    await expectLinear((size) => plainBounce("-".repeat(size)), readReport, 8 * 1024);
  });

  it("with a long run of address characters", async () => {
    await expectLinear((size) => plainBounce("a".repeat(size)), readReport, 8 * 1024);
  });

  it("with parts nested deeper and deeper", async () => {
    await expectLinear(nested, readReport, 4);
  });

  it("with a larger and larger header block", async () => {
    await expectLinear(withHeaders, readReport, 8 * 1024);
  });
});

describe("a message over a bound is refused before it is read", () => {
  it("refuses a message larger than 4 MB", async () => {
    const large = plainBounce(`${"x".repeat(1000)}\r\n`.repeat(4300));
    expect(large.length).toBeGreaterThan(REPORT_LIMITS.messageBytes);
    await expect(readReport(large)).rejects.toThrow("It is 4.1 MB, over the 4 MB a report may be.");
  });

  it("refuses a line longer than 64 KiB", async () => {
    await expect(readReport(plainBounce("-".repeat(65_537)))).rejects.toThrow(
      "It has a line longer than 65,536 bytes.",
    );
    expect(await readReport(plainBounce("-".repeat(65_000)))).toMatchObject({ kind: "hard" });
  });

  it("refuses a header block larger than 256 KiB", async () => {
    await expect(readReport(withHeaders(300 * 1024))).rejects.toThrow(
      "It cannot be read as mail: Maximum header size of 262144 bytes exceeded.",
    );
    expect(await readReport(withHeaders(200 * 1024))).toMatchObject({ kind: "hard" });
  });

  it("refuses parts nested more than 32 deep", async () => {
    await expect(readReport(nested(33))).rejects.toThrow(
      "It cannot be read as mail: Maximum MIME nesting depth of 32 levels exceeded.",
    );
    expect(await readReport(nested(20))).toMatchObject({ kind: "hard" });
  });

  it("takes no address longer than an address can be", async () => {
    const long = `${"a".repeat(250)}@readers.example`;
    expect(await readReport(dsn(`rfc822; ${long}`))).toMatchObject({ recipient: null });
    expect(await readReport(dsn("rfc822; reader@readers.example"))).toMatchObject({
      recipient: "reader@readers.example",
    });
  });
});
