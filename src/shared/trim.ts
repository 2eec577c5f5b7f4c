/**
 * Trimming by a rule for each character, walking in from the ends: a
 * pattern such as `/-+$/` tries again from every hyphen it meets, and a
 * line of hyphens that does not end the text takes quadratic time.
 */

/** Whether a character is white space as `\s` means it. */
export const isSpace = (character: string) => /\s/.test(character);

/** `text` without the characters `drop` accepts at its end. */
export function trimEndWhere(text: string, drop: (character: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1] as string)) end -= 1;
  return text.slice(0, end);
}

/** `text` without the characters `drop` accepts at either end. */
export function trimWhere(text: string, drop: (character: string) => boolean): string {
  let start = 0;
  while (start < text.length && drop(text[start] as string)) start += 1;
  return trimEndWhere(text.slice(start), drop);
}

/** Accepts each of `characters`. */
export const oneOf = (characters: string) => (character: string) => characters.includes(character);
