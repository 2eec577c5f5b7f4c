import { describe, expect, it } from "vitest";
import { fromHeader, parseMailbox } from "./mailbox.ts";

describe("a mailbox setting (MAIL_FROM)", () => {
  it.each([
    ["site@firm.example", "", "site@firm.example"],
    ["Meridian <site@firm.example>", "Meridian", "site@firm.example"],
    ['  "Meridian, Insight" <site@firm.example>  ', "Meridian, Insight", "site@firm.example"],
    ['"The \\"Firm\\"" <site@firm.example>', 'The "Firm"', "site@firm.example"],
    ["<site@firm.example>", "", "site@firm.example"],
  ])("%s is %j at %s", (from, name, address) => {
    expect(parseMailbox(from)).toEqual({ name, address });
  });

  it.each([
    ['"Unclosed <site@firm.example>'],
    ["Empty <>"],
    ["One <a@firm.example>, Two <b@firm.example>"],
  ])("refuses %s", (from) => {
    expect(parseMailbox(from)).toHaveProperty("refusal");
  });

  it("reads back what it writes", () => {
    const sender = { name: 'A "quoted", \\ name', address: "site@firm.example" };
    expect(parseMailbox(fromHeader(sender))).toEqual(sender);
  });
});
