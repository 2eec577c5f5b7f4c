/**
 * A count at the start of a sentence, as an editor would write it: in words
 * up to twelve ("Eight capabilities", "One capability"), in digits above
 * ("13 capabilities"), and "No" for none. The texts that count the firm's
 * lists say what the lists hold now, not what they held when written.
 */
const WORDS = [
  "No",
  "One",
  "Two",
  "Three",
  "Four",
  "Five",
  "Six",
  "Seven",
  "Eight",
  "Nine",
  "Ten",
  "Eleven",
  "Twelve",
] as const;

export function countInWords(count: number, one: string, many: string): string {
  return `${WORDS[count] ?? String(count)} ${count === 1 ? one : many}`;
}
