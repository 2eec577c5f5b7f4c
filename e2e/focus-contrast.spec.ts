/**
 * A keyboard user must see where focus is on every background of the site:
 * white, warm paper, navy sections, the footer, the orange button. Each
 * focusable element is reached with Tab, and its focus indicator (outline,
 * plus any solid ring drawn by box-shadow) must reach 3:1 against the colour
 * around it and, where the element paints its own background, against that too.
 * The same visit of each screen at 1280 px first has axe check the page, so
 * the page loads once for both (a11y.spec.ts holds the other widths and states).
 */
import { SCREEN_PATHS } from "../src/shared/routes.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { contrastRatio, over, parseColor, type Rgba } from "./support/contrast.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const MINIMUM = 3;

interface Focused {
  name: string;
  /** The colours of the indicator's solid parts: the outline, rings drawn by box-shadow. */
  ring: string[];
  /** Background colours from the element's parent outwards, up to the first opaque one. */
  around: string[];
  /** The element's own background, when it paints one. */
  own: string | null;
}

/** Describes the focused element, or answers null when focus has left the page's elements. */
function describeFocus(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    // The elements already described, kept on the page: Tab has come round when one recurs.
    const store = window as { focusSeen?: WeakSet<Element> };
    store.focusSeen ??= new WeakSet();
    const seen = store.focusSeen;
    if (!element || element === document.body || seen.has(element)) return null;
    seen.add(element);

    const transparent = (color: string) => /^rgba\(.*, 0\)$/.test(color);
    const ringOf = (style: CSSStyleDeclaration) => {
      const parts: string[] = [];
      if (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1) {
        parts.push(style.outlineColor);
      }
      // A ring is a shadow with no blur and a spread: "rgb(…) 0px 0px 0px 2px".
      for (const [, color, blur, spread] of style.boxShadow.matchAll(
        /(rgba?\([^)]*\)) -?[\d.]+px -?[\d.]+px ([\d.]+)px (-?[\d.]+)px/g,
      )) {
        if (color && Number(blur) === 0 && Number(spread) >= 1) parts.push(color);
      }
      return parts.filter((color) => !transparent(color));
    };
    const style = getComputedStyle(element);
    // A link may draw its indicator on a pseudo-element covering its card.
    const ring =
      ringOf(style).length > 0 ? ringOf(style) : ringOf(getComputedStyle(element, "::after"));

    const around: string[] = [];
    for (let node = element.parentElement; node; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      if (transparent(background)) continue;
      around.push(background);
      if (!background.startsWith("rgba")) break;
    }
    const label = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
    return {
      name: `<${element.tagName.toLowerCase()} class="${element.className}"> ${label.slice(0, 40)}`,
      ring,
      around,
      own: transparent(style.backgroundColor) ? null : style.backgroundColor,
    };
  });
}

/** The colour seen behind a stack of backgrounds, innermost first, over white. */
function composite(layers: string[], base: Rgba = { r: 255, g: 255, b: 255, a: 1 }): Rgba {
  return layers.reduceRight((under, layer) => over(parseColor(layer), under), base);
}

/** The best contrast any part of the ring reaches against `background`. */
function bestContrast(ring: string[], background: Rgba): number {
  return Math.max(
    0,
    ...ring.map((part) => contrastRatio(over(parseColor(part), background), background)),
  );
}

async function tabThroughPage(page: Page): Promise<string[]> {
  const faults: string[] = [];
  for (let step = 0; step < 400; step += 1) {
    await page.keyboard.press("Tab");
    await waitUntilSettled(page);
    const focused = await describeFocus(page);
    if (!focused) return faults;
    const behind = composite(focused.around);
    const backgrounds: [string, Rgba][] = [["surroundings", behind]];
    if (focused.own) backgrounds.push(["own background", composite([focused.own], behind)]);
    if (focused.ring.length === 0) faults.push(`${focused.name}: no focus indicator`);
    for (const [where, background] of backgrounds) {
      const ratio = bestContrast(focused.ring, background);
      if (ratio < MINIMUM) {
        faults.push(
          `${focused.name}: ${ratio.toFixed(2)}:1 against its ${where} (ring ${focused.ring.join(" + ")})`,
        );
      }
    }
  }
  throw new Error("Tab never left the page's elements");
}

test.describe("at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  for (const path of SCREEN_PATHS) {
    test(`axe finds no violations on ${path}, and every focus indicator reaches ${MINIMUM}:1 against its background`, async ({
      page,
    }) => {
      await open(page, path);
      await waitUntilSettled(page);
      await expectNoAxeViolations(page);
      expect(await tabThroughPage(page)).toEqual([]);
    });
  }
});
