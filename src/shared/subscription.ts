/** The newsletter subscription. */
import type { FieldRule } from "./field-rules.ts";

export const EMAIL_MAX_LENGTH = 254;

/** The subscribe form's one field, `emailId`: the form and the server check it with this. */
export const SUBSCRIBE_EMAIL_FIELD = "emailId";

export const SUBSCRIBE_EMAIL_RULE = {
  label: "Email address",
  required: true,
  maxLength: EMAIL_MAX_LENGTH,
  kind: "email",
} as const satisfies FieldRule;

/** Addresses are compared without surrounding spaces and without regard to case. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * The topics a visitor may choose on the subscribe page (the firm names them
 * in the console): sent as one `topics` parameter of ids parted by commas,
 * "3,7", beside `emailId`.
 */
export const SUBSCRIBE_TOPICS_FIELD = "topics";
/**
 * A topic's box on the form is a field of its own, `topic-<id>`: a form
 * names each field once (the server refuses a name sent twice), so the
 * ticked boxes are read by their names.
 */
export const TOPIC_BOX_PREFIX = "topic-";

/** The ids of the boxes ticked in a form's data, as the `topics` parameter carries them. */
export function tickedTopics(form: FormData): string {
  return [...form.keys()]
    .filter((name) => name.startsWith(TOPIC_BOX_PREFIX))
    .map((name) => name.slice(TOPIC_BOX_PREFIX.length))
    .join(",");
}
/** The most topics the firm offers, and so the most one subscriber chooses. */
export const TOPICS_MAX = 12;
/** What the subscribe page's topics are headed with. */
export const TOPICS_LEGEND = "Topics you would like to hear about (optional)";
export const TOPIC_NAME_MAX = 60;

export interface Topic {
  id: number;
  name: string;
}

/** The ids a `topics` parameter names, each once; null when it names anything but ids. */
export function topicIdsOf(text: string): number[] | null {
  if (text === "") return [];
  const ids = new Set<number>();
  for (const part of text.split(",")) {
    if (!/^\d{1,9}$/.test(part)) return null;
    ids.add(Number(part));
  }
  return [...ids];
}
