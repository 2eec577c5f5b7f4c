/**
 * A mail's text part as a reader takes it in: the lines it is wrapped at
 * (78 characters) joined again, so that a sentence can be looked for whole.
 */
export const unwrapped = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");
