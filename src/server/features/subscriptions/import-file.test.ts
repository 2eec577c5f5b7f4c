/**
 * Reading an import's file as it arrives (features/subscriptions/import-file.ts),
 * here on the test's thread: each limit refused at its line, before the rest
 * of the file is read; quoting, line endings and UTF-8 read alike however
 * the file is cut into chunks; and work that grows in step with the file,
 * however the file is made.
 */
import { describe, expect, it } from "vitest";
import { expectLinear } from "../../../../test/support/growth.ts";
import { IMPORT_LIMITS, IMPORT_TEXTS } from "../../../shared/admin/subscriber-import.ts";
import { Refusal } from "../../platform/refusal.ts";
import { BATCH_ROWS, FileReading, type ReadingSettings, readWholeFile } from "./import-file.ts";

const CHUNK = 64 * 1024;

const settings = (judge = false): ReadingSettings => ({
  mapping: {},
  judge,
  consentDay: "2024-06-30",
  secret: "a test secret of at least thirty-two characters",
  now: Date.parse("2026-03-01T12:00:00Z"),
});

/** `bytes` in chunks of `size`, as an upload arrives. */
function* chunksOf(bytes: Buffer | string, size = CHUNK): Generator<Uint8Array> {
  const buffer = Buffer.from(bytes);
  for (let start = 0; start < buffer.length; start += size) {
    yield buffer.subarray(start, start + size);
  }
}

/** Why `chunks` are refused, and how many of them were taken before the refusal. */
function refusalOf(chunks: Iterable<Uint8Array>): { message: string; chunksTaken: number } {
  let chunksTaken = 0;
  function* counted() {
    for (const chunk of chunks) {
      chunksTaken += 1;
      yield chunk;
    }
  }
  try {
    readWholeFile(counted(), settings());
  } catch (error) {
    if (error instanceof Refusal) return { message: error.message, chunksTaken };
    throw error;
  }
  throw new Error("the file was read without a refusal");
}

const refusal = (text: string) => refusalOf(chunksOf(text)).message;

describe("reading an import's file", () => {
  it("refuses a 39 MB header of commas at its 501st column, having taken only its first chunk", () => {
    // The whole file is never made: the same 64 KB of commas, 624 times over.
    const commas = Buffer.alloc(CHUNK, ",");
    function* header() {
      for (let n = 0; n < 624; n += 1) yield commas;
    }
    expect(refusalOf(header())).toEqual({
      message: IMPORT_TEXTS.headerTooWide(1),
      chunksTaken: 1,
    });
  });

  it("refuses a row of more values than a header may have columns, at its line", () => {
    const row = ",".repeat(IMPORT_LIMITS.maxColumns);
    expect(refusal(`email\na@firm.example\n${row}\n`)).toBe(IMPORT_TEXTS.rowTooWide(3));
    // The limit itself is allowed.
    const widest = ",".repeat(IMPORT_LIMITS.maxColumns - 1);
    expect(
      readWholeFile(chunksOf(`email${widest}\na@firm.example${widest}\n`), settings()).summary,
    ).toMatchObject({ totalRows: 1 });
  });

  it("refuses a row longer than the limit at the line it starts on, a quote never closed too", () => {
    const longest = "x".repeat(IMPORT_LIMITS.maxLineKilobytes * 1024);
    expect(refusal(`email\n${longest}x\n`)).toBe(IMPORT_TEXTS.lineTooLong(2));
    expect(readWholeFile(chunksOf(`email\n${longest}\n`), settings()).summary.totalRows).toBe(1);
    // A quote never closed runs on to the end of the file: the row is refused where it began.
    const lines = "a@firm.example\r\n".repeat(10_000);
    expect(refusal(`email\r\nfirst@firm.example\r\n"${lines}`)).toBe(IMPORT_TEXTS.lineTooLong(3));
    // A row spread over lines inside quotes counts all of them.
    const quotedLines = `"${"note\n".repeat(14_000)}"`;
    expect(refusal(`email,note\na@firm.example,${quotedLines}\n`)).toBe(
      IMPORT_TEXTS.lineTooLong(2),
    );
  });

  it("refuses more values in all than the limit, at the line that goes past it", () => {
    // Rows of empty values, which the parser would skip, count all the same.
    const row = ",".repeat(499);
    const rows = IMPORT_LIMITS.maxCells / 500;
    expect(refusal(`email${row}\n${`${row}\n`.repeat(rows)}`)).toBe(
      IMPORT_TEXTS.tooManyCells(rows + 1),
    );
  });

  it("refuses the row past the limit of rows, at its line", () => {
    const rows = "a\r\n".repeat(IMPORT_LIMITS.maxRows + 1);
    expect(refusal(`email\r\n\r\n${rows}`)).toBe(
      IMPORT_TEXTS.tooManyRows(IMPORT_LIMITS.maxRows + 3),
    );
    const atLimit = readWholeFile(
      chunksOf(`email\n${"a\n".repeat(IMPORT_LIMITS.maxRows)}`),
      settings(),
    );
    expect(atLimit.summary.totalRows).toBe(IMPORT_LIMITS.maxRows);
  });

  it("refuses a file that is not UTF-8 at its line, and reads a character cut between chunks", () => {
    const latin1 = Buffer.from("email\na@firm.example\njos\xe9@firm.example\n", "latin1");
    expect(refusalOf(chunksOf(latin1)).message).toBe(IMPORT_TEXTS.notUtf8(3));
    const cutShort = Buffer.concat([Buffer.from("email\nx"), Buffer.from([0xc3])]);
    expect(refusalOf(chunksOf(cutShort)).message).toBe(IMPORT_TEXTS.notUtf8(2));
    const text = "email,name\nana@firm.example,Ana García\n";
    const byteByByte = readWholeFile(chunksOf(text, 1), settings());
    expect(byteByByte.summary.rows).toEqual([["ana@firm.example", "Ana García"]]);
  });

  it("names the line of a quoting fault, counting CR, LF and CRLF each as one line break", () => {
    const fault = (why: string, line: number) => IMPORT_TEXTS.unreadable(line, why);
    expect(refusal('email,note\r\na@firm.example,"one\r\ntwo"\r\nx"y,z\r\n')).toBe(
      fault("a quote opens in the middle of a value.", 4),
    );
    expect(refusal('email\ra@firm.example\r"b"c\r')).toBe(
      fault("a quote closes before the end of its value.", 3),
    );
    expect(refusal('email\n"a\n\nb"\n"never closed\nc@firm.example\n')).toBe(
      fault("a quoted value is never closed.", 5),
    );
  });

  it("reads the same rows however the file is cut: quotes, line endings and a byte-order mark", () => {
    const file = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        '"Email Address",note\r\n"ana@firm.example","said ""hi"", then\r\nleft"\r\n' +
          "bo@firm.example,\n\n,,\ncy@firm.example,last",
      ),
    ]);
    const whole = readWholeFile([file], settings());
    expect(whole.summary).toMatchObject({
      columns: ["Email Address", "note"],
      totalRows: 3,
      rows: [
        ["ana@firm.example", 'said "hi", then\r\nleft'],
        ["bo@firm.example", ""],
        ["cy@firm.example", "last"],
      ],
    });
    for (const size of [1, 2, 3, 7]) {
      expect(readWholeFile(chunksOf(file, size), settings()), `chunks of ${size}`).toEqual(whole);
    }
  });

  it("ends a line at each of CR, LF and CRLF, as the limits count lines, whatever ends the first", () => {
    // Left to guess, the parser would take the CRLF it meets first for every
    // line's end, and read the rest as one value.
    const mixed = readWholeFile(
      chunksOf("email\r\na@firm.example\nb@firm.example\rc@firm.example"),
      settings(),
    );
    expect(mixed.summary.rows).toEqual([
      ["a@firm.example"],
      ["b@firm.example"],
      ["c@firm.example"],
    ]);
    // So these 300,000 lines are 300,000 rows (past the limit), never one row of 600,000 values.
    const file = `email,name\r\n${"a@firm.example,\n".repeat(10)}${",\n".repeat(300_000)}`;
    expect(refusal(file)).toBe(IMPORT_TEXTS.tooManyRows(IMPORT_LIMITS.maxRows + 2));
  });

  it("hands the rows on in batches while it reads, and keeps none of them", () => {
    const rows = Array.from({ length: 5_000 }, (_, n) => `reader-${n}@firm.example`).join("\n");
    const batches: number[] = [];
    const reading = new FileReading(settings(true), (batch) =>
      batches.push(batch.candidates.length + batch.reports.length),
    );
    for (const chunk of chunksOf(`email\n${rows}\n`)) reading.push(chunk);
    // Two full batches went on while the file was read; the rest at its end.
    expect(batches).toEqual([BATCH_ROWS, BATCH_ROWS]);
    expect(reading.finish().totalRows).toBe(5_000);
    expect(batches).toEqual([BATCH_ROWS, BATCH_ROWS, 5_000 - 2 * BATCH_ROWS]);
  });
});

/**
 * Each input starts large enough that its fixed costs (a parser to make, a
 * key to derive) are small beside its rows, so work that grows faster than
 * the rows shows in the ratio.
 */
describe("reading an import's file takes time in step with its size", () => {
  /** Reads `file` whole, judging every row as the dry run does; a refusal fails the test. */
  const read = (file: Buffer) => readWholeFile(chunksOf(file), settings(true));
  const fileOf = (header: string, row: (n: number) => string) => (rows: number) =>
    Buffer.from(`${header}\n${Array.from({ length: rows }, (_, n) => row(n)).join("\n")}\n`);

  it("with many commas", () => {
    expectLinear(
      // A hundred values a row: rows enough to time stay well within the limit of values.
      fileOf("email", (n) => `reader-${n}@firm.example${",".repeat(99)}`),
      read,
      1_000,
    );
  });

  it("with long quoted values full of commas, quotes and line breaks", () => {
    const value = `"${'a, ""b""\r\n'.repeat(5_000)}"`;
    expectLinear(
      fileOf("email,note", (n) => `reader-${n}@firm.example,${value}`),
      read,
      16,
    );
  });

  it("with many lines", () => {
    expectLinear(
      fileOf(
        "Email Address,MEMBER_RATING,CONFIRM_TIME",
        (n) => `reader-${n}@firm.example,2,2024-03-05 14:05:40`,
      ),
      read,
      8_000,
    );
  });

  it("with long lines of quotes", () => {
    const quotes = `"${'""'.repeat(30_000)}"`;
    expectLinear(
      fileOf("email,quotes", (n) => `reader-${n}@firm.example,${quotes}`),
      read,
      16,
    );
  });
});
