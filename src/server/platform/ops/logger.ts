/**
 * The server's one logger, made before anything else, so the database pool
 * can report to it from the start and the app logs through it.
 *
 * The log holds no e-mail address and no token, whatever the level: a
 * request is logged with its method and path, its query string (where
 * addresses and link tokens travel) replaced by a mark, and every line has
 * the addresses it would carry (a mail server's refusal names its recipient,
 * a database's conflict its value) masked before it is written. Logs are
 * kept longer and read more widely than the data they describe.
 *
 * A terminal gets each line readable (pino-pretty): the time of day, the
 * level and the message, the other fields indented below. A pipe or a file,
 * which a log shipper or a person's grep reads, gets the JSON lines.
 */
import { isatty } from "node:tty";
import type { FastifyRequest, FastifyServerOptions } from "fastify";
import pino, { type Logger, type LoggerOptions } from "pino";
import { prettyFactory } from "pino-pretty";
import type { PlatformConfig } from "../server-settings.ts";
import { type LogDestination, stdoutDestination } from "./log-destination.ts";

/** What stands in a logged URL for its query string. */
export const QUERY_MARK = "?[redacted]";

/**
 * An address's local part (the characters RFC 5322 allows there, less those
 * that also part a URL), plain or percent-encoded (`jane%40example.org`).
 * The look-behind starts a match only where a run of such characters starts,
 * so a long path of them costs one pass, not one per character.
 */
const EMAIL_ADDRESS = /(?<![\w.!#$%'*+^`{|}~-])[\w.!#$%'*+^`{|}~-]+(@|%40)(?=[\w-]+\.[\w-])/gi;

/** The path of a request's URL; a query string leaves only QUERY_MARK. */
export function withoutQuery(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : `${url.slice(0, query)}${QUERY_MARK}`;
}

/** A log line with each e-mail address's local part masked, the domain kept for diagnosis. */
export function withoutAddresses(line: string): string {
  if (!line.includes("@") && !/%40/i.test(line)) return line;
  return line.replace(EMAIL_ADDRESS, "***$1");
}

/** Fastify's request serializer, less the query string. */
function request(request: FastifyRequest) {
  return {
    method: request.method,
    url: withoutQuery(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The options that keep addresses and tokens out of every line, for any logger of the app. */
export const PRIVATE_LOG_OPTIONS = {
  serializers: { req: request },
  hooks: { streamWrite: withoutAddresses },
} satisfies LoggerOptions;

export const DROPPED_LINES_MESSAGE = "log lines dropped: the log's reader was not keeping up";

export interface ServerLog {
  logger: Logger;
  destination: LogDestination;
}

/**
 * The logger, writing to standard output without waiting for its reader
 * (log-destination.ts): readable lines at a terminal, JSON lines elsewhere.
 */
export function createLogger(config: Pick<PlatformConfig, "LOG_LEVEL">): ServerLog {
  const destination = stdoutDestination((droppedLines) =>
    logger.warn({ droppedLines }, DROPPED_LINES_MESSAGE),
  );
  const output = isatty(STDOUT) ? readableLines(destination) : destination;
  const logger = pino({ level: config.LOG_LEVEL, ...PRIVATE_LOG_OPTIONS }, output);
  return { logger, destination };
}

const STDOUT = 1;

/** Each JSON line, its addresses already masked, written for a person reading a terminal. */
function readableLines(destination: LogDestination): Pick<LogDestination, "write"> {
  const readable = prettyFactory({ translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
  return { write: (line) => destination.write(readable(line)) };
}

/** An app's logger settings (a test's stream, or none) with the options above. */
export function privateLoggerSettings(
  settings: FastifyServerOptions["logger"],
): FastifyServerOptions["logger"] {
  if (!settings) return false;
  return { ...(settings === true ? {} : settings), ...PRIVATE_LOG_OPTIONS };
}
