/**
 * A failure a person can act on (a setting, an argument, the state of the
 * database or of a file they gave): its message says what to do, and it is
 * all they are shown, without a stack trace. Only a fault nobody caused
 * shows its stack.
 */
export class Refusal extends Error {}

/** The statuses a request is refused with, each a kind of reason the person can act on. */
export type RefusalStatus = 400 | 404 | 409 | 413;

/** One reason per field of the form the request came from, to show beside each. */
export type FieldReasons = Readonly<Record<string, string>>;

/**
 * A request refused: its status says which kind of reason (the request is
 * wrong, names nothing there, or meets a state that forbids it), its message
 * what to do, and `fields` the form's fields it is about. Thrown anywhere a
 * route runs, inside a console write's transaction (which it rolls back) or
 * before it; the one error handler (platform/security/errors.ts) answers it
 * as `{ message, fields }`.
 */
export class RequestRefusal extends Refusal {
  constructor(
    readonly statusCode: RefusalStatus,
    message: string,
    readonly fields?: FieldReasons,
  ) {
    super(message);
  }
}

/** The refusals a route throws, by what is wrong; each says it in `message`. */
export const refuse = {
  /** The request itself is wrong: a field against another, a link that opens nothing. */
  badRequest: (message: string, fields?: FieldReasons) => new RequestRefusal(400, message, fields),
  /** What the request names is not there. */
  notFound: (message: string) => new RequestRefusal(404, message),
  /** What the request names is in a state that does not allow it (already done, changed since). */
  conflict: (message: string, fields?: FieldReasons) => new RequestRefusal(409, message, fields),
  /** An upload larger than the limit. */
  tooLarge: (message: string) => new RequestRefusal(413, message),
};
