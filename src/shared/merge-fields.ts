/**
 * Merge fields: `{first_name}` or `{first_name|there}` in an issue's title,
 * summary or body, filled with each reader's own value, or the fallback after
 * the bar where the reader has none ("Hello {first_name|there}" reads
 * "Hello Ada", or "Hello there"). Written as Mailchimp's and Ghost's editors
 * write theirs. A brace that is not one of these fields is text, left as
 * written; the archive page and every copy without a value read the fallback.
 */

/** The fields an issue may use, as the editor writes them, and the subscriber's value each takes. */
export const MERGE_FIELDS = { first_name: "firstName", last_name: "lastName" } as const;
export type MergeField = keyof typeof MERGE_FIELDS;

/** A reader's values: their first and last name where known. */
export type MergeValues = Partial<Record<(typeof MERGE_FIELDS)[MergeField], string | null>>;

/** A fallback is a few words: longer text does not belong in a greeting. */
export const FALLBACK_MAX = 60;

/*
 * A field's name (MERGE_FIELDS), then at most FALLBACK_MAX characters that
 * are neither a brace nor a line's end: no quantifier is nested in another,
 * so a match is tried in bounded time from each brace. Written out, not
 * built, so the source check can prove it (render.test.ts holds it to
 * MERGE_FIELDS and FALLBACK_MAX).
 */
const FIELD = /\{(first_name|last_name)(?:\|([^{}\r\n]{0,60}))?\}/g;

/** Whether `text` has a merge field. */
export const hasMergeFields = (text: string) => text.search(FIELD) !== -1;

/** `text` with each merge field replaced by what `fill` makes of it. */
export function replaceMergeFields(
  text: string,
  fill: (field: MergeField, fallback: string) => string,
): string {
  return text.replace(FIELD, (_whole, field: MergeField, fallback?: string) =>
    fill(field, (fallback ?? "").trim()),
  );
}

/** The reader's value of `field`, or the fallback when they have none. */
export function mergeValue(values: MergeValues, field: MergeField, fallback: string): string {
  return values[MERGE_FIELDS[field]]?.trim() || fallback;
}

/** `text` as one reader reads it; with no values, as the archive page reads it. */
export function fillMergeFields(text: string, values: MergeValues = {}): string {
  return replaceMergeFields(text, (field, fallback) => mergeValue(values, field, fallback));
}
