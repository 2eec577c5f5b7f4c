import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./test.ts";

/**
 * Asserts that axe-core finds no accessibility violations on the page once its
 * screen is there. Every page and console screen has a level-one heading, so
 * waiting for it keeps axe from judging a "Loading…" placeholder while a
 * screen's code is still on its way. `exclude` leaves out what axe cannot
 * judge (a selector).
 *
 * axe runs in the page itself (the library's "legacy mode"), not in each
 * frame with the results gathered in a blank page: that costs a new page, a
 * second copy of axe and every passing check's nodes carried across, about
 * half of a scan, and buys only frames from other origins, which neither the
 * site nor the console has. Only violations are reported in full; the passing
 * checks are not read.
 */
export async function expectNoAxeViolations(
  page: Page,
  { exclude }: { exclude?: string } = {},
): Promise<void> {
  await expect(page.locator("h1").first(), "the screen's level-one heading").toBeVisible();
  const builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
  if (exclude) builder.exclude(exclude);
  const results = await builder.analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(summary).toEqual([]);
}
