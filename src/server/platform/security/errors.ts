/**
 * One way to fail. Routes throw a refusal (`refuse.*`, platform/refusal.ts)
 * and hooks `app.httpErrors.*` (from @fastify/sensible); request validation
 * fails with the Zod issues of the route's schema; this one handler turns
 * every failure into `{message}`: client errors say what was wrong
 * (validation and a refusal about a form's fields also name each field), a
 * database out of reach answers 503 with Retry-After, anything unexpected
 * answers a bare 500 with the request id, and the detail
 * goes only to the log. A client's mistake is an ordinary event, logged in
 * one line at info with the status and the reason given; only a failure of
 * the site's own is logged as an error, with its stack.
 */
import sensible from "@fastify/sensible";
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from "fastify-type-provider-zod";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { RequestRefusal } from "../refusal.ts";

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again later.";
export const DATABASE_UNAVAILABLE_MESSAGE =
  "We cannot reach our database just now. Please try again in a moment.";
/** How long a client is asked to wait while the database is out of reach. */
const DATABASE_RETRY_SECONDS = 5;

export interface ValidationFailure {
  message: string;
  fields: Record<string, string>;
}

/** One sentence for the whole request, and one reason per field for the form. */
export function describeValidationError(
  issues: readonly ZodFastifySchemaValidationError[],
): ValidationFailure {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of issues) {
    // A field is named by its own name, however deep (a console record's
    // fields are one object): the innermost key, not an array's index.
    const field = issue.instancePath
      .split("/")
      .filter((key) => key && !/^\d+$/.test(key))
      .at(-1);
    const reason = issue.message ?? "is not valid";
    if (issue.keyword === "unrecognized_keys") {
      for (const key of issue.params.keys as string[]) fields[key] ??= "is not an accepted field";
    } else if (field) {
      fields[field] ??= reason;
    } else {
      general.push(reason);
    }
  }
  return validationFailure(fields, general);
}

/**
 * The answer to a request refused field by field: by its schema, or by a
 * check only the handler can make (a value that must be one of a list the
 * content decides).
 */
export function validationFailure(
  fields: Record<string, string>,
  general: readonly string[] = [],
): ValidationFailure {
  // A reason written as a sentence for the person ("This link has expired
  // …. Ask for a new one.") is said as it is; a fragment ("is required")
  // follows its field's name in one sentence about the request.
  const isSentence = (reason: string) => reason.endsWith(".");
  const reasons = [
    ...general.map((reason) => ({ said: `The request ${reason}`, reason })),
    ...Object.entries(fields).map(([field, reason]) => ({ said: `${field} ${reason}`, reason })),
  ];
  const fragments = reasons.filter(({ reason }) => !isSentence(reason)).map(({ said }) => said);
  const sentences = reasons.filter(({ reason }) => isSentence(reason)).map(({ reason }) => reason);
  const message = [
    ...(fragments.length > 0 ? [`Invalid request: ${fragments.join("; ")}.`] : []),
    ...sentences,
  ].join(" ");
  return { message, fields };
}

/** One reason per field (the first), from the issues of a schema's safeParse. */
export function fieldReasons(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const [field] = issue.path;
    if (field !== undefined) fields[String(field)] ??= issue.message;
  }
  return fields;
}

/** http-errors marks the errors whose message is meant for the client. */
function isExposed(error: FastifyError & { expose?: boolean }, status: number): boolean {
  return error.expose ?? status < 500;
}

export default fp(
  async function errors(app: FastifyInstance) {
    await app.register(sensible);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      // A failure's answer is built here, not by the route: it is not held to
      // the route's response schemas, which describe what the route sends (a
      // route declaring 400 with `fields` turned a body that was not JSON,
      // answered with {message} alone, into a 500).
      reply.serializer(JSON.stringify).type("application/json; charset=utf-8");
      if (hasZodFastifySchemaValidationErrors(error)) {
        const failure = describeValidationError(error.validation);
        request.log.info({ statusCode: 400, reason: failure.message }, "invalid request");
        return reply.code(400).send(failure);
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && isExposed(error, status)) {
        request.log.info(
          { statusCode: status, code: error.code, reason: error.message },
          "client error",
        );
        const fields = error instanceof RequestRefusal ? error.fields : undefined;
        return reply.code(status).send({ message: error.message, ...(fields ? { fields } : {}) });
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, "database unavailable");
        return reply
          .code(503)
          .header("retry-after", String(DATABASE_RETRY_SECONDS))
          .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
      }
      request.log.error({ err: error }, "unexpected failure");
      return reply.code(500).send({ message: INTERNAL_ERROR_MESSAGE, requestId: request.id });
    });
  },
  { name: "errors" },
);
