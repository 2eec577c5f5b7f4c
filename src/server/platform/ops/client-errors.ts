/**
 * The answer to a request Node's HTTP parser gives up on before any route sees
 * it: too slow (the time-outs in timeouts.ts), headers too large, or not HTTP
 * at all. Fastify's default answers with its own JSON; this one answers like
 * every other failure of the site, `{message}`, and closes the connection,
 * since the rest of what the client sends cannot be parsed.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

export interface ClientErrorAnswer {
  status: number;
  message: string;
}

/** By the code Node's parser or server puts on the error. */
const ANSWERS: Record<string, ClientErrorAnswer> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: "The request took too long to arrive. Please send it again.",
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "The request's headers are too large.",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    message: "The request's chunk extensions are too large.",
  },
};

const MALFORMED: ClientErrorAnswer = {
  status: 400,
  message: "The request is not valid HTTP.",
};

export function clientErrorAnswer(code: string | undefined): ClientErrorAnswer {
  return (code !== undefined && ANSWERS[code]) || MALFORMED;
}

/** Node's own name for the response under way on a socket, if any. */
interface ServerSocket extends Socket {
  _httpMessage?: { headersSent: boolean } | null;
}

/** Fastify's clientErrorHandler; Fastify calls it with the instance as `this`. */
export function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: ServerSocket,
): void {
  // A reset or closed connection has no one left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, message } = clientErrorAnswer(error.code);
  this.log.info({ err: error, status }, "client error before routing");
  // Not over half an answer already sent on this connection (as Node does).
  if (socket.writable && !socket._httpMessage?.headersSent) {
    const body = JSON.stringify({ message });
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        "Content-Type: application/json; charset=utf-8",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
    );
  }
  socket.destroy(error);
}
