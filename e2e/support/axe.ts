import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./test.ts";

/**
 * Asserts that axe-core finds no accessibility violations on the page once its
 * screen is there. Every page and console screen has a level-one heading, so
 * waiting for it keeps axe from judging a "Loading…" placeholder while a
 * screen's code is still on its way.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await expect(page.locator("h1").first(), "the screen's level-one heading").toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(summary).toEqual([]);
}
