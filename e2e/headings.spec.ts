/**
 * No heading runs out of its column or into the text beside it, at any width
 * from a small phone to a wide screen: the text of every visible h1–h4 stays
 * inside its own box (its column, when it is a grid item), inside its
 * parent's content box, and clear of its siblings' text.
 */
import { API_PATHS, serverPath } from "../src/shared/api-paths.ts";
import type { CaseStudy } from "../src/shared/content.ts";
import { caseStudyPath, SCREEN_PATHS } from "../src/shared/routes.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const WIDTHS = [320, 375, 768, 1024, 1440, 1920];

/** Where each visible heading's text leaves its column or meets its neighbours' text. */
function headingFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Sub-pixel rounding of text boxes, not a visible overlap.
    const TOLERANCE = 1;
    const textBox = (node: Node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect();
    };
    const overlap = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > TOLERANCE &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > TOLERANCE;
    const shown = (element: Element) =>
      element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
      !element.closest(".visually-hidden") &&
      element.getClientRects().length > 0;

    const faults: string[] = [];
    for (const heading of document.querySelectorAll("h1, h2, h3, h4")) {
      const parent = heading.parentElement;
      if (!parent || !shown(heading) || !heading.textContent?.trim()) continue;
      const text = textBox(heading);
      const name = `<${heading.tagName.toLowerCase()}> "${heading.textContent.trim().slice(0, 40)}"`;

      // A grid or flex item's own box is its column; its text may not run past it.
      const own = heading.getBoundingClientRect();
      if (text.left < own.left - TOLERANCE || text.right > own.right + TOLERANCE) {
        faults.push(
          `${name} spans ${Math.round(text.left)}–${Math.round(text.right)} px, its box ${Math.round(own.left)}–${Math.round(own.right)} px`,
        );
      }
      const style = getComputedStyle(parent);
      const box = parent.getBoundingClientRect();
      const column = {
        left:
          box.left +
          Number.parseFloat(style.borderLeftWidth) +
          Number.parseFloat(style.paddingLeft),
        right:
          box.right -
          Number.parseFloat(style.borderRightWidth) -
          Number.parseFloat(style.paddingRight),
      };
      if (text.left < column.left - TOLERANCE || text.right > column.right + TOLERANCE) {
        faults.push(
          `${name} spans ${Math.round(text.left)}–${Math.round(text.right)} px, its column ${Math.round(column.left)}–${Math.round(column.right)} px`,
        );
      }
      for (const sibling of parent.children) {
        if (sibling === heading || !shown(sibling) || !sibling.textContent?.trim()) continue;
        if (overlap(text, textBox(sibling))) {
          faults.push(`${name} overlaps the text of <${sibling.tagName.toLowerCase()}>`);
        }
      }
    }
    return faults;
  });
}

async function checkAtEveryWidth(page: Page, path: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await open(page, path);
    await waitUntilSettled(page);
    expect(await headingFaults(page), `${path} at ${width} px`).toEqual([]);
  }
}

for (const path of SCREEN_PATHS) {
  test(`every heading on ${path} stays in its column at ${WIDTHS.join(", ")} px`, async ({
    page,
  }) => {
    await checkAtEveryWidth(page, path);
  });
}

test(`every heading of every case study's page stays in its column at ${WIDTHS.join(", ")} px`, async ({
  page,
  request,
}) => {
  const studies = (await (
    await request.get(serverPath(API_PATHS.caseStudies))
  ).json()) as CaseStudy[];
  expect(studies.length).toBeGreaterThan(0);
  test.slow();
  for (const study of studies) await checkAtEveryWidth(page, caseStudyPath(study.slug));
});
