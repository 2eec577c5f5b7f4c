import { parse } from "csv-parse/sync";
import { expect } from "vitest";

/**
 * A CSV download's rows, each an array of cells (the header row first);
 * fails unless the text starts with the byte-order mark Excel needs.
 */
export function csvRows(text: string): string[][] {
  expect(text.charCodeAt(0), "a UTF-8 byte-order mark first").toBe(0xfeff);
  return parse(text, { bom: true }) as string[][];
}

/** The same, each row keyed by the header's column names. */
export function csvRecords(text: string): Record<string, string>[] {
  expect(text.charCodeAt(0), "a UTF-8 byte-order mark first").toBe(0xfeff);
  return parse(text, { bom: true, columns: true }) as Record<string, string>[];
}
