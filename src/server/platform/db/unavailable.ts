/**
 * Whether a failure is the database being out of reach (a restart, a
 * fail-over, a dropped connection, a file held too long by another process)
 * rather than a fault of the request or of the code: the first is worth a
 * retry in a moment, and is answered so.
 */

/**
 * Socket errors, PostgreSQL's shutdown and connection classes (57P01-03,
 * 08xxx) and SQLite's lock still held after its busy time-out.
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "SQLITE_BUSY",
]);

/**
 * What pg says, with no code, of a connection the server closed: while in
 * use, and when a transaction's rollback is then tried on it (that error
 * replaces the first one).
 */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (typeof code === "string" && UNAVAILABLE_CODES.has(code)) || LOST_CONNECTION.test(error.message)
  );
}
