/**
 * The design tokens: the site's colour palette (and its motion duration) in
 * one place. The pages get them as CSS custom properties, `:root{--ink:…}`,
 * which root.tsx puts before the inlined stylesheet; the e-mails, whose
 * clients need literal colours, use the values themselves. No other file in
 * src/ spells a hex colour (checked by test/source/design-tokens.test.ts).
 */
import { ACCENT_COLOR, SCROLL_ANIMATION } from "./constants.ts";

/** Each key becomes a custom property: `inkSoft` is `--ink-soft`. */
export const COLORS = {
  /** The site's accent, fixed in constants.ts. */
  accent: ACCENT_COLOR,
  /** The accent lightened: accent buttons under the pointer. */
  accentHover: "#ff8a2b",
  /** The accent darkened to pass AA as text on white. */
  accentInk: "#b34700",
  ink: "#14171c",
  inkSoft: "#4b515b",
  inkFaint: "#6b717b",
  paper: "#ffffff",
  paperWarm: "#f6f4f0",
  /** A deeper warm paper: the backdrop behind the industry pictures. */
  paperDeep: "#f1ede7",
  line: "#e3e0da",
  /** Borders of form fields on paper. */
  lineStrong: "#8a8f98",
  night: "#0e1726",
  nightSoft: "#1b2638",
  /** Dividing lines on night. */
  nightLine: "#2a3548",
  /** Borders of form fields on night. */
  nightLineStrong: "#4a5568",
  onNight: "#f3f1ec",
  onNightSoft: "#b9c0cc",
  /** Secondary text over a background video. */
  onVideoSoft: "#e6e9ee",
  /** A check's state in the console: text (AA on its soft background) and background. */
  statePass: "#116329",
  statePassSoft: "#dafbe1",
  stateWarn: "#7d4e00",
  stateWarnSoft: "#fff8c5",
  stateFail: "#a40e26",
  stateFailSoft: "#ffebe9",
} as const;

export type ColorToken = keyof typeof COLORS;

/** Fade-ins and other scroll animations. */
export const MOTION_DURATION = `${SCROLL_ANIMATION.durationMs}ms`;

const customProperty = (key: string) =>
  `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Each token as a custom property and its value, e.g. `["--accent", "#ff7300"]`. */
export function designTokenProperties(): [string, string][] {
  return [
    ...Object.entries(COLORS).map(([key, value]): [string, string] => [customProperty(key), value]),
    ["--motion-duration", MOTION_DURATION],
  ];
}

/** The tokens as one CSS rule, e.g. `:root{--accent:#ff7300;--accent-hover:#ff8a2b;…}`. */
export function designTokensCss(): string {
  const declarations = designTokenProperties().map(([name, value]) => `${name}:${value}`);
  return `:root{${declarations.join(";")}}`;
}
