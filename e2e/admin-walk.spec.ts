/**
 * A walk through the console: each role signs in and opens every area of the console at
 * 1440 and 375 px. The areas its role opens show their screen and pass axe;
 * the others are not offered, and typed in directly they say the role does
 * not allow them (the server refuses their calls regardless:
 * test/platform/console/authorisation.test.ts).
 */

import { AREAS } from "../src/admin/layout/areas.ts";
import { AUTH_TEXTS } from "../src/shared/admin/auth.ts";
import { hasRole, ROLES } from "../src/shared/admin/roles.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { expect, test } from "./support/test.ts";

for (const role of ROLES) {
  for (const width of [1440, 375]) {
    test(`signed in as ${role}, every area at ${width} px`, async ({ page }) => {
      // An axe scan per area (seven for an owner) on two shared cores.
      test.slow();
      await page.setViewportSize({ width, height: 900 });
      await signInToConsole(page, await consoleAccount(role, `walk-${width}`));
      const nav = page.getByRole("navigation", { name: "Console" });
      for (const area of AREAS) {
        const link = nav.getByRole("link", { name: area.label });
        if (hasRole(role, area.role)) {
          await link.click();
          await expect(link).toHaveAttribute("aria-current", "page");
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          await expect(page.getByRole("status").filter({ hasText: "Loading" })).toHaveCount(0);
          await expectNoAxeViolations(page);
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${area.label} scrolls sideways`).toBeLessThanOrEqual(0);
        } else {
          await expect(link).toHaveCount(0);
          await page.goto(`/admin/${area.path}`);
          await expect(page.getByRole("alert")).toHaveText(AUTH_TEXTS.roleTooWeak);
        }
      }
    });
  }
}
