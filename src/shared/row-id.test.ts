import { describe, expect, it } from "vitest";
import { LARGEST_ROW_ID, rowIdSchema } from "./row-id.ts";

describe("rowIdSchema", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    [String(LARGEST_ROW_ID), LARGEST_ROW_ID],
    [7, 7],
  ])("reads %j as %j", (given, id) => {
    expect(rowIdSchema.parse(given)).toBe(id);
  });

  it.each(["0x10", "1e3", "+1", " 1", "1 ", "0", "-1", "1.5", "", String(LARGEST_ROW_ID + 1), 1.5])(
    "refuses %j: one row has one spelling",
    (given) => {
      expect(rowIdSchema.safeParse(given).success).toBe(false);
    },
  );
});
