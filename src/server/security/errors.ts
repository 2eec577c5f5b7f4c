/**
 * One place decides what a failure looks like to a client: validation and
 * other client errors say what was wrong; anything unexpected answers a bare
 * 500 with the request id, and the detail goes only to the log.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { describeValidationError, isZodError } from "../api/validation.ts";

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again later.";

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isZodError(error)) {
        return reply.code(400).send(describeValidationError(error));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        request.log.info({ err: error }, "client error");
        return reply.code(status).send({ message: error.message });
      }
      request.log.error({ err: error }, "unexpected failure");
      return reply.code(500).send({ message: INTERNAL_ERROR_MESSAGE, requestId: request.id });
    });
  },
  { name: "errors" },
);
