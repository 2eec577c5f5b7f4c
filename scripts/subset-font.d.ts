/**
 * The part of subset-font's API scripts/subset-fonts.ts uses (the package has
 * no types; @types/subset-font lacks `keepFeatures`). See its README.
 */
declare module "subset-font" {
  interface SubsetFontOptions {
    targetFormat?: "sfnt" | "woff" | "woff2";
    /** Axis name → a fixed value, or a range to keep (partial instancing). */
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
    /** The OpenType feature tags to keep; every feature when left out. */
    keepFeatures?: string[];
  }
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: SubsetFontOptions,
  ): Promise<Buffer>;
}
