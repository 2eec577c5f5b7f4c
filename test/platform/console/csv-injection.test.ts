/**
 * The formula guard of every CSV the console and the CLI write (ADR 038),
 * against OWASP's CSV-injection cases: each cell a spreadsheet would run
 * gets a leading apostrophe; phone numbers, amounts and ordinary text are
 * left as typed. And the file starts with the byte-order mark Excel needs
 * to read "García" as UTF-8. A full-width or small form of = + - @
 * (＝ ＋ － ＠, which some spreadsheets read as the character itself) is
 * judged as the character it stands for.
 */
import { describe, expect, it } from "vitest";
import { csvText, neutralizeFormula } from "../../../src/server/platform/console/csv.ts";
import { csvRows } from "../../support/csv.ts";

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
  // The full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20) and the small ones (U+FE66, U+FE62, U+FE63, U+FE6B).
  "＝1+2",
  '＝HYPERLINK("https://evil.example","Click")',
  "＝cmd|' /C calc'!A0",
  "＋cmd|' /C calc'!A0",
  "－cmd|' /C calc'!A0",
  "－SUM(A1:A9)",
  "＠SUM(1+1)*cmd|' /C calc'!A0",
  "﹦1+2",
  "﹢A1",
  "﹣SUM(A1:A9)",
  "﹫SUM(1+1)",
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
  // A full-width sign before a number is judged as the sign itself: a number, left as typed.
  "＋34 600 123 456",
  "－12.50",
  "＋３４ ６００ １２３ ４５６",
  "a＝b",
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

  it("guards a full-width formula in the file, as the exports and the import's report write it", () => {
    const text = csvText([{ address: "＝cmd|' /C calc'!A0@example.com" }], ["address"]);
    expect(csvRows(text)).toEqual([["address"], ["'＝cmd|' /C calc'!A0@example.com"]]);
  });
});
