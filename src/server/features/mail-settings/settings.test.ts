import { describe, expect, it } from "vitest";
import { expectLinear } from "../../../../test/support/growth.ts";
import { fromHeader } from "../../platform/outbox/mailbox.ts";
import { senderOf } from "./settings.ts";

describe("the sender of MAIL_FROM", () => {
  it.each([
    ["site@firm.example", "", "site@firm.example"],
    ["Meridian <site@firm.example>", "Meridian", "site@firm.example"],
    ['  "Meridian, Insight" <site@firm.example>  ', "Meridian, Insight", "site@firm.example"],
    ['"The \\"Firm\\"" <site@firm.example>', 'The "Firm"', "site@firm.example"],
    ["<site@firm.example>", "", "site@firm.example"],
  ])("%s is %j at %s", (from, name, address) => {
    expect(senderOf(from)).toEqual({ name, address });
  });

  it.each([
    ['"Unclosed <site@firm.example>'],
    ['"Ends escaped\\" <site@firm.example>'],
    ["Two < brackets <site@firm.example>"],
    ["Spaced <site @firm.example>"],
    ["Empty <>"],
  ])("takes %s whole as the address, as a header it cannot split", (from) => {
    expect(senderOf(from)).toEqual({ name: "", address: from.trim() });
  });

  it("reads back what it writes", () => {
    const sender = { name: 'A "quoted", \\ name', address: "site@firm.example" };
    expect(senderOf(fromHeader(sender))).toEqual(sender);
  });

  it("takes time in step with the header, however it is written", async () => {
    await expectLinear((size) => `${"\t".repeat(size)}>${"\n".repeat(size)}\t""<">`, senderOf);
    await expectLinear((size) => `"${"\\x".repeat(size)}<a@b>`, senderOf);
  });
});
