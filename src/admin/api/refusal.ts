/** How a failed request is shown: next to the fields it names, or as one message. */
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./client.ts";

/** A failure in words for the person: the server's message, or what went wrong. */
export function failureText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Puts each reason the server gave for one of `fields` next to that field,
 * and returns the message to show by the button when it named none of them
 * (null when every reason found its field).
 */
export function showRefusal<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string | null {
  const reasons = error instanceof ApiError ? error.fields : {};
  const named = fields.filter((field) => reasons[field]);
  for (const field of named) setError(field, { message: reasons[field] });
  return named.length ? null : failureText(error);
}
