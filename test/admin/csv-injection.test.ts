/**
 * The formula guard of every CSV the console and the CLI write (ADR 038),
 * against OWASP's CSV-injection cases: each cell a spreadsheet would run
 * gets a leading apostrophe; phone numbers, amounts and ordinary text are
 * left as typed. And the file starts with the byte-order mark Excel needs
 * to read "García" as UTF-8.
 */
import { describe, expect, it } from "vitest";
import { csvText, neutralizeFormula } from "../../src/server/platform/console/csv.ts";
import { csvRows } from "../support/csv.ts";

/** OWASP's payloads, and the variants that start with each character a spreadsheet runs. */
const RUNS = [
  "=1+2",
  '=1+2";=1+2',
  "=1+2'\" ;,=1+2",
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("https://evil.example","Click")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "+cmd|' /C calc'!A0",
  "-cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "+A1",
  "-SUM(A1:A9)",
  "\t=1+2",
  "\r=1+2",
  "+1 555 0199\t",
];

const LEFT_AS_TYPED = [
  "+34 600 123 456",
  "+44 (0)20 7946 0000",
  "+1-555-0199",
  "-12.50",
  "-1,250.00",
  "+",
  "García",
  "a=b",
  " =1+2 with a leading space",
  "",
];

describe("the CSV formula guard", () => {
  it.each(RUNS)("guards %j", (cell) => {
    expect(neutralizeFormula(cell)).toBe(`'${cell}`);
  });

  it.each(LEFT_AS_TYPED)("leaves %j as typed", (cell) => {
    expect(neutralizeFormula(cell)).toBe(cell);
  });

  it("writes null and undefined as empty cells", () => {
    expect(neutralizeFormula(null)).toBe("");
    expect(neutralizeFormula(undefined)).toBe("");
  });

  it("starts the file with a byte-order mark, and the cells read back as written", () => {
    const text = csvText(
      [{ name: "María García", phone: "+34 600 123 456", note: "=1+2" }],
      ["name", "phone", "note"],
    );
    expect(csvRows(text)).toEqual([
      ["name", "phone", "note"],
      ["María García", "+34 600 123 456", "'=1+2"],
    ]);
    expect(Buffer.from(text, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
