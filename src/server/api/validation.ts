/**
 * Route schemas are Zod schemas from src/shared. This compiler lets Fastify
 * validate with them, and formats a failure as `400 {message, fields}`.
 */
import type { FastifyInstance } from "fastify";
import { ZodError, type ZodType } from "zod";

export function validateWithZod(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => (data: unknown) => {
    const result = (schema as ZodType).safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  });
}

export interface ValidationFailure {
  message: string;
  fields: Record<string, string>;
}

export function describeValidationError(error: ZodError): ValidationFailure {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[key] ??= "is not an accepted field";
    } else if (issue.path.length > 0) {
      fields[String(issue.path[0])] ??= issue.message;
    } else {
      general.push(issue.message);
    }
  }
  const details = [
    ...general.map((message) => `The request ${message}`),
    ...Object.entries(fields).map(([field, reason]) => `${field} ${reason}`),
  ];
  return { message: `Invalid request: ${details.join("; ")}.`, fields };
}

export function isZodError(error: unknown): error is ZodError {
  return error instanceof ZodError;
}
