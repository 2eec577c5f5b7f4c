/**
 * Finds raw hex colours (#rgb, #rgba, #rrggbb, #rrggbbaa) in source text.
 * Anchors are not colours: a # right after a word character ("/weare#ethos",
 * "&#123;") or opening an href/to value (href="#main") is skipped, and so is
 * any # word that goes on past its hex digits ("#ethos", "#face-off").
 */
const HEX_COLOUR =
  /(?<![\w&$#-])(?<!\b(?:href|to)=["'`])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})(?![\w-])/gi;

export interface HexColour {
  line: number;
  text: string;
  /** The whole line, for the report. */
  source: string;
}

export function findHexColours(source: string): HexColour[] {
  return source.split("\n").flatMap((lineText, index) =>
    [...lineText.matchAll(HEX_COLOUR)].map((match) => ({
      line: index + 1,
      text: match[0],
      source: lineText.trim(),
    })),
  );
}
