/**
 * Every request's id: in every log line of the request (Fastify's reqId), in
 * the X-Request-Id header of its answer, and in the body of a 500, so a
 * person's report, the proxy's log and the site's log meet. An id the site's
 * own proxy sent is kept, so one request has one id from the proxy on; a
 * client's own header is not believed, nor one that is not a plain token.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ProxyTrust } from "../security/trust-proxy.ts";

export const REQUEST_ID_HEADER = "x-request-id";

/** Up to 128 letters, digits and `_ . : + = / @ -`: nginx's hex, a UUID, a cloud's trace id. */
const SANE_REQUEST_ID = /^[\w.:+=/@-]{1,128}$/;

/** Fastify's genReqId: the trusted proxy's id when it gave a sane one, else a new UUID. */
export function requestIds(trust: ProxyTrust | false) {
  return (request: IncomingMessage): string => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (
      trust &&
      typeof given === "string" &&
      SANE_REQUEST_ID.test(given) &&
      trust(request.socket.remoteAddress ?? "", 0)
    ) {
      return given;
    }
    return randomUUID();
  };
}

/** Names the id on every answer, those of a failure or a refusal included. */
export default fp(
  async function requestIdHeader(app: FastifyInstance) {
    app.addHook("onRequest", (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: "request-id" },
);
