/**
 * The HTTP server's time-outs, so a client that sends slowly, or opens a
 * connection and stays silent, cannot hold a socket (and a file descriptor)
 * for long. A request still incomplete after its time-out is answered 408 with
 * our `{message}` (client-errors.ts) and its connection closed.
 */
import type { ServerOptions } from "node:http";
import type { PlatformConfig } from "../server-settings.ts";
import { answerClientError } from "./client-errors.ts";

/** Node's default, 30 s, would let a request outlive a short time-out by as much. */
const MAX_CHECK_INTERVAL_MS = 1_000;

/** Fastify's options for them; `http` goes to Node's http.createServer. */
interface Timeouts {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
  clientErrorHandler: typeof answerClientError;
}

export function serverTimeouts(config: PlatformConfig): Timeouts {
  return {
    // The whole request, headers and body, must arrive within this.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // A socket with no traffic either way (a client that stops reading an answer).
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    // An idle connection between two requests.
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    // Answers those 408s, and the parser's other refusals, as the site's JSON.
    clientErrorHandler: answerClientError,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      // Node refuses a headers time-out above the request time-out it is created with.
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      // Node checks the two time-outs above only this often: a quarter of the
      // shorter one (at most a second) keeps a request from lasting more than
      // 1.25 times its limit.
      connectionsCheckingInterval: Math.min(
        MAX_CHECK_INTERVAL_MS,
        Math.ceil(config.HEADERS_TIMEOUT_MS / 4),
      ),
    },
  };
}
