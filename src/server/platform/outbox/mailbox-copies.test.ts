import { describe, expect, it } from "vitest";
import { isPersonsMail } from "./mailbox-copies.ts";

const header = [
  "Message-ID: <5f1c@firm.example>",
  "From: The Firm <hello@firm.example>",
  'To: "Hopper, Grace" <Grace.Hopper@Example.org>,',
  " other@example.org",
  "Reply-To: Ada <ada@example.net>",
  "Subject: Hello",
].join("\n");

describe("which mailbox messages are a person's", () => {
  it("finds the address in a folded To, whatever its case and a comma in the name", () => {
    expect(isPersonsMail(header, { sentTo: "grace.hopper@example.org" })).toBe(true);
    expect(isPersonsMail(header, { sentTo: "other@example.org" })).toBe(true);
  });

  it("finds the address in Reply-To only when asked for mail answering to it", () => {
    expect(isPersonsMail(header, { answeringTo: "ADA@example.net" })).toBe(true);
    expect(isPersonsMail(header, { sentTo: "ada@example.net" })).toBe(false);
    expect(isPersonsMail(header, { answeringTo: "grace.hopper@example.org" })).toBe(false);
  });

  it("finds a message by its Message-ID", () => {
    expect(isPersonsMail(header, { messageIds: ["<5f1c@firm.example>"] })).toBe(true);
    expect(isPersonsMail(header, { messageIds: ["<5f1d@firm.example>"] })).toBe(false);
  });

  it("takes no longer address that ends with the person's for theirs", () => {
    expect(isPersonsMail(header, { sentTo: "hopper@example.org" })).toBe(false);
    expect(isPersonsMail("Subject: to ada@example.net\n", { sentTo: "ada@example.net" })).toBe(
      false,
    );
  });
});
