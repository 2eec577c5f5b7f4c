/**
 * WCAG contrast between computed CSS colours: the relative luminance of an
 * sRGB colour and the ratio of two, (lighter + 0.05) / (darker + 0.05).
 */

/** A colour as the browser computes it: channels 0–255, alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Reads `rgb(…)` or `rgba(…)`, the form getComputedStyle gives every colour of this site. */
export function parseColor(css: string): Rgba {
  const match = css.match(/^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/);
  if (!match) throw new Error(`not an rgb() colour: ${css}`);
  const [r, g, b, a] = match.slice(1).map((part) => (part === undefined ? 1 : Number(part)));
  return { r: r ?? 0, g: g ?? 0, b: b ?? 0, a: a ?? 1 };
}

/** The colour seen when `top` is painted over the opaque `under`. */
export function over(top: Rgba, under: Rgba): Rgba {
  const mix = (front: number, back: number) => front * top.a + back * (1 - top.a);
  return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a: 1 };
}

function luminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two opaque colours, from 1 to 21. */
export function contrastRatio(first: Rgba, second: Rgba): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((x, y) => y - x);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}
