/**
 * Reading a list's CSV file as it arrives, chunk by chunk, and judging each
 * row by what the file alone can say: an address that is not valid, one met
 * earlier in the file, one the export marks as gone, a consent date that
 * cannot be true. What the list itself says (on it already, suppressed,
 * unsubscribed before, erased) is asked of the database afterwards
 * (import.ts). This runs on a worker thread (import-worker.ts), so it
 * imports nothing that reaches the database.
 *
 * A file is hostile until bounded. Before the parser sees a chunk, its bytes
 * are checked against the limits of IMPORT_LIMITS: a row's length, its
 * values, the values of the whole file, and UTF-8, line by line, so a
 * refusal names the line it is about. Nothing of the file is kept but the
 * preview's first rows and, while judging, the addresses met so far: the
 * rows go on as they are judged, in batches. Each byte is looked at a fixed
 * number of times, by these checks and by the parser, so the work grows in
 * step with the file.
 */
import { type CsvError, type Parser, parse } from "csv-parse";
import {
  consentDateFault,
  IMPORT_LIMITS,
  IMPORT_TEXTS,
  type ImportMapping,
  type ImportPreview,
  OUTCOME_LABELS,
  type RowOutcome,
  type RowReport,
} from "../../../shared/admin/subscriber-import.ts";
import { checkField } from "../../../shared/field-rules.ts";
import { normalizeEmail, SUBSCRIBE_EMAIL_RULE } from "../../../shared/subscription.ts";
import { Refusal } from "../../platform/refusal.ts";
import { erasureHasher } from "./erasure-hash.ts";
import {
  type FileLayout,
  layoutOf,
  type PersonCells,
  personOf,
  readMoment,
} from "./import-formats.ts";

/** What a reading is asked to do. */
export interface ReadingSettings {
  mapping: ImportMapping;
  /** Judge every row (the dry run and the import), not only read the file (the preview). */
  judge: boolean;
  /** The statement's day, for a row the file gives no date; null in a dry run. */
  consentDay: string | null;
  /** The server's secret, for the erasure hashes of the addresses to add. */
  secret: string;
  /** The moment the file is read (epoch ms): no consent can be later. */
  now: number;
}

/** A row whose address the file allows: the list has still to be asked about it. */
export interface Candidate {
  row: number;
  address: string;
  /** The file's own date for the row when it has one, else the statement's day. */
  consentDate: string;
  erasureHash: string;
  /** The person's name, tags and fields, as the row gives them. */
  person: PersonCells;
}

/** Rows judged, in file order, handed on a batch at a time. */
export interface RowBatch {
  candidates: Candidate[];
  reports: RowReport[];
}

/** What the file holds: its header, the format it names, its first rows and how many. */
export type FileSummary = ImportPreview;

/** Rows per batch handed on: small enough that taking one in never holds up a visitor. */
export const BATCH_ROWS = 2_000;

/** Row number as a spreadsheet shows it: the header is row 1. */
const rowNumber = (index: number) => index + 2;

export function report(
  row: number,
  address: string,
  outcome: RowOutcome,
  detail?: string,
): RowReport {
  return {
    row,
    address,
    outcome,
    reason: detail ? `${OUTCOME_LABELS[outcome]} ${detail}` : OUTCOME_LABELS[outcome],
  };
}

/** The layout of a file with `header`, refusing one of no known format whose address column is not chosen. */
function layoutFor(
  header: readonly string[],
  mapping: ImportMapping,
): FileLayout & { emailColumn: string } {
  const layout = layoutOf(header, mapping);
  if (!layout.emailColumn) throw new Refusal(IMPORT_TEXTS.chooseEmailColumn);
  return { ...layout, emailColumn: layout.emailColumn };
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];
const MAX_ROW_BYTES = IMPORT_LIMITS.maxLineKilobytes * 1024;

/** Where the scan is in a value: at its start, in one without quotes, in quotes, just past a quote in quotes. */
type ValueState = "start" | "bare" | "quoted" | "quoteInQuotes";

/** What is wrong with a file's quoting, in the importer's words. */
const QUOTE_FAULTS = {
  notClosed: "a quoted value is never closed.",
  opensInside: "a quote opens in the middle of a value.",
  closesEarly: "a quote closes before the end of its value.",
} as const;

/**
 * The file's layout checked on its bytes before the parser sees them: its
 * quoting, the length of each row, the values of each row and of the whole
 * file, the number of rows, and UTF-8. It reads CSV as the parser is set to
 * (RFC 4180: CR, LF or CRLF ends a line; a quote opens a value, two in one
 * stand for a quote, one closes it), so a file it passes is one the parser
 * reads without fault, and a refusal names its line as an editor counts
 * them. A line with a byte past ASCII goes through a UTF-8 decoder that
 * refuses what is not UTF-8; a line break never falls inside a character.
 */
class LayoutCheck {
  private line = 1;
  private rowStartLine = 1;
  private valueStartLine = 1;
  private rowBytes = 0;
  private rowValues = 1;
  /** Values of the rows ended so far. */
  private cells = 0;
  /** Rows with content below the header. */
  private rows = 0;
  private inHeader = true;
  private value: ValueState = "start";
  private afterCr = false;
  /** Bytes of a byte-order mark met at the file's start, 3 once past it. */
  private bomBytes = 0;
  /** The line has a byte past ASCII, so its text goes through the decoder. */
  private lineNotAscii = false;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  check(chunk: Uint8Array): void {
    let lineStart = 0;
    for (let at = 0; at < chunk.length; at += 1) {
      const byte = chunk[at] as number;
      if (this.bomBytes < BOM.length) {
        if (byte === BOM[this.bomBytes]) {
          this.bomBytes += 1;
          this.lineNotAscii = true;
          continue;
        }
        // Not a byte-order mark after all: what was read of one begins a value.
        if (this.bomBytes > 0) this.value = "bare";
        this.bomBytes = BOM.length;
      }
      const crlf = this.afterCr && byte === LF;
      this.afterCr = byte === CR;
      if (crlf) {
        lineStart = at + 1;
        if (this.value === "quoted") this.grow();
      } else if (byte === LF || byte === CR) {
        this.checkText(chunk.subarray(lineStart, at), true);
        lineStart = at + 1;
        this.line += 1;
        if (this.value === "quoted") this.grow();
        else this.endRow();
      } else {
        this.grow();
        if (byte >= 0x80) this.lineNotAscii = true;
        this.read(byte);
      }
    }
    this.checkText(chunk.subarray(lineStart), false);
  }

  /** At the end of the file: a quote left open, or a character cut short, is a fault. */
  finish(): void {
    if (this.value === "quoted") this.unreadable(this.valueStartLine, QUOTE_FAULTS.notClosed);
    this.checkText(new Uint8Array(0), true);
    this.endRow();
  }

  /** A byte within a line, not a line break. */
  private read(byte: number): void {
    switch (this.value) {
      case "start":
        this.valueStartLine = this.line;
        if (byte === QUOTE) this.value = "quoted";
        else if (byte === COMMA) this.addValue();
        else this.value = "bare";
        return;
      case "bare":
        if (byte === QUOTE) this.unreadable(this.line, QUOTE_FAULTS.opensInside);
        if (byte === COMMA) this.addValue();
        return;
      case "quoted":
        if (byte === QUOTE) this.value = "quoteInQuotes";
        return;
      case "quoteInQuotes":
        if (byte === QUOTE) this.value = "quoted";
        else if (byte === COMMA) this.addValue();
        else this.unreadable(this.line, QUOTE_FAULTS.closesEarly);
        return;
    }
  }

  private grow(): void {
    this.rowBytes += 1;
    if (this.rowBytes > MAX_ROW_BYTES) {
      throw new Refusal(IMPORT_TEXTS.lineTooLong(this.rowStartLine));
    }
  }

  private addValue(): void {
    this.value = "start";
    this.rowValues += 1;
    if (this.rowValues > IMPORT_LIMITS.maxColumns) {
      throw new Refusal(
        this.inHeader
          ? IMPORT_TEXTS.headerTooWide(this.rowStartLine)
          : IMPORT_TEXTS.rowTooWide(this.rowStartLine),
      );
    }
    if (this.cells + this.rowValues > IMPORT_LIMITS.maxCells) {
      throw new Refusal(IMPORT_TEXTS.tooManyCells(this.line));
    }
  }

  /** A line break outside quotes, or the end of the file. */
  private endRow(): void {
    if (this.rowBytes > 0) {
      if (this.inHeader) this.inHeader = false;
      else if (this.rows === IMPORT_LIMITS.maxRows) {
        throw new Refusal(IMPORT_TEXTS.tooManyRows(this.rowStartLine));
      } else this.rows += 1;
      this.cells += this.rowValues;
    }
    this.value = "start";
    this.rowStartLine = this.line;
    this.rowBytes = 0;
    this.rowValues = 1;
  }

  private unreadable(line: number, why: string): never {
    throw new Refusal(IMPORT_TEXTS.unreadable(line, why));
  }

  private checkText(bytes: Uint8Array, lineEnds: boolean): void {
    if (!this.lineNotAscii) return;
    if (lineEnds) this.lineNotAscii = false;
    try {
      this.decoder.decode(bytes, { stream: !lineEnds });
    } catch {
      throw new Refusal(IMPORT_TEXTS.notUtf8(this.line));
    }
  }
}

/** A fault of the parser's own, which the layout check should have met first. */
function refusalOf(error: unknown): unknown {
  if (error instanceof Refusal) return error;
  const { code, lines } = error as Partial<CsvError> & { lines?: number };
  if (typeof code !== "string") return error;
  return new Refusal(
    IMPORT_TEXTS.unreadable(lines ?? 1, "it is not laid out as comma-separated values."),
  );
}

/**
 * Judges each row by what the file says of it, in file order, handing the
 * rows on BATCH_ROWS at a time.
 */
class RowJudge {
  private readonly layout: FileLayout & { emailColumn: string };
  private readonly header: readonly string[];
  private readonly emailIndex: number;
  private readonly dateIndex: number;
  private readonly erasureHash: (email: string) => string;
  private readonly firstRowOf = new Map<string, number>();
  private batch: RowBatch = { candidates: [], reports: [] };

  constructor(
    header: readonly string[],
    private readonly settings: ReadingSettings,
    private readonly handOn: (batch: RowBatch) => void,
  ) {
    this.layout = layoutFor(header, settings.mapping);
    this.header = header;
    this.emailIndex = header.indexOf(this.layout.emailColumn);
    this.dateIndex = this.layout.dateColumn ? header.indexOf(this.layout.dateColumn) : -1;
    this.erasureHash = erasureHasher(settings.secret);
  }

  judge(cells: readonly string[], row: number): void {
    const raw = cells[this.emailIndex] ?? "";
    const address = normalizeEmail(raw);
    if (checkField(SUBSCRIBE_EMAIL_RULE, address)) {
      this.refuse(report(row, raw.trim(), "invalid"));
      return;
    }
    const first = this.firstRowOf.get(address);
    if (first !== undefined) {
      this.refuse(report(row, address, "duplicate", `(row ${first})`));
      return;
    }
    this.firstRowOf.set(address, row);
    const state = this.layout.stateOf(cells);
    if (state !== "subscribed") {
      const outcome = state === "cleaned" ? "sourceCleaned" : "sourceUnsubscribed";
      this.refuse(report(row, address, outcome));
      return;
    }
    const written = this.dateIndex >= 0 ? (cells[this.dateIndex] ?? "") : "";
    const moment = readMoment(written);
    const fault = moment === null ? null : consentDateFault(Date.parse(moment), this.settings.now);
    if (fault) {
      this.refuse(report(row, address, fault, `(${written.trim().slice(0, 40)})`));
      return;
    }
    this.batch.candidates.push({
      row,
      address,
      consentDate: moment ?? this.settings.consentDay ?? "",
      erasureHash: this.erasureHash(address),
      person: personOf(this.layout, this.header, cells),
    });
    this.handOnWhenFull();
  }

  /** Hands on the rows judged since the last batch. */
  flush(): void {
    if (this.batch.candidates.length + this.batch.reports.length === 0) return;
    this.handOn(this.batch);
    this.batch = { candidates: [], reports: [] };
  }

  private refuse(row: RowReport): void {
    this.batch.reports.push(row);
    this.handOnWhenFull();
  }

  private handOnWhenFull(): void {
    if (this.batch.candidates.length + this.batch.reports.length >= BATCH_ROWS) this.flush();
  }
}

/**
 * One file read as it arrives: push each chunk, then finish. Either refuses
 * (a Refusal) at the first chunk past a limit or that is not CSV, or, from
 * finish, says what the file holds. The parser is csv-parse's stream: each
 * chunk, once checked, is parsed before write returns, and each record comes
 * here through on_record as it is read and is judged at once, so nothing is
 * left to read when finish returns.
 */
export class FileReading {
  private readonly layoutCheck = new LayoutCheck();
  private readonly parser: Parser;
  private header: string[] | null = null;
  private layout: FileLayout | null = null;
  private judge: RowJudge | null = null;
  private readonly preview: string[][] = [];
  private rows = 0;

  constructor(
    private readonly settings: ReadingSettings,
    private readonly handOn: (batch: RowBatch) => void = () => {},
  ) {
    this.parser = parse({
      bom: true,
      // Each of these ends a line, as the layout check reads them: left to
      // guess, the parser would take the first line's ending for all and read
      // another inside a value, joining lines into one row past every limit.
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      on_record: (record: string[]) => {
        this.take(record);
        return null;
      },
    });
    // Its failures are read from `errored` after each write; the event would come later.
    this.parser.on("error", () => {});
  }

  push(chunk: Uint8Array): void {
    this.layoutCheck.check(chunk);
    this.parser.write(chunk);
    this.throwIfFailed();
  }

  finish(): FileSummary {
    this.layoutCheck.finish();
    this.parser.end();
    this.throwIfFailed();
    const { header, layout } = this;
    if (!header || !layout || this.rows === 0) throw new Refusal(IMPORT_TEXTS.empty);
    this.judge?.flush();
    return {
      format: layout.format,
      columns: header,
      emailColumn: layout.emailColumn,
      dateColumn: layout.dateColumn,
      roles: layout.roles,
      skipped: layout.skipped,
      rows: this.preview,
      totalRows: this.rows,
    };
  }

  private throwIfFailed(): void {
    if (this.parser.errored) throw refusalOf(this.parser.errored);
    // The stream parses what it is given at once; were it ever to queue a
    // chunk instead, rows would go unread and the answer would be wrong.
    if (this.parser.writableLength > 0) throw new Error("the CSV parser queued its input");
  }

  private take(record: string[]): void {
    if (!this.header) {
      this.header = record.map((name) => name.trim());
      this.layout = layoutOf(this.header, this.settings.mapping);
      if (this.settings.judge) this.judge = new RowJudge(this.header, this.settings, this.handOn);
      return;
    }
    if (this.preview.length < IMPORT_LIMITS.previewRows) this.preview.push(record);
    this.judge?.judge(record, rowNumber(this.rows));
    this.rows += 1;
  }
}

/** A file read and judged: what it holds, and its rows, in file order. */
export interface FileRead {
  summary: FileSummary;
  /** Rows whose address the file allows (none for a preview). */
  candidates: Candidate[];
  /** Rows the file alone refuses. */
  reports: RowReport[];
}

/** Reads a whole file given in chunks, on this thread (a test's, a benchmark's). */
export function readWholeFile(chunks: Iterable<Uint8Array>, settings: ReadingSettings): FileRead {
  const candidates: Candidate[] = [];
  const reports: RowReport[] = [];
  const reading = new FileReading(settings, (batch) => {
    candidates.push(...batch.candidates);
    reports.push(...batch.reports);
  });
  for (const chunk of chunks) reading.push(chunk);
  return { summary: reading.finish(), candidates, reports };
}
