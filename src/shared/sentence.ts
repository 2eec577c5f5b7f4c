/** A phrase made to begin a sentence or a line: its first letter upper-case. */
export const capitalised = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
