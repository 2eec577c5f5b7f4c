// @vitest-environment happy-dom
/**
 * State a component resets when something it follows changes (a navigation,
 * the address's search words) must not undo what a person did before React
 * ran the first render's effects. A layout effect of a sibling rendered after
 * the component runs exactly there, as the component reaches the page and
 * before any passive effect: acting in it is the person who is quicker than
 * the effects, as a browser test on a busy machine is.
 */
import { act, createElement, type ReactNode, useLayoutEffect, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { RangePicker } from "../../src/admin/screens/audience/RangePicker.tsx";
import { InboxFilters } from "../../src/admin/screens/inquiries/InboxFilters.tsx";
import { ROUTES } from "../../src/shared/routes.ts";
import { useResetOnChange } from "../../src/web/hooks/use-reset-on-change.ts";
import { MobileMenu } from "../../src/web/layout/MobileMenu.tsx";

let container: HTMLElement;
let root: Root;
let reactErrors: unknown[][];

beforeEach(() => {
  // act() returns once every render and effect React has to run has run.
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
  container = document.body.appendChild(document.createElement("div"));
  root = createRoot(container);
  reactErrors = [];
  // React reports its warnings here; the test's DOM does not know the <search> element.
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes("<%s> is unrecognized")) reactErrors.push(args);
  });
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  vi.restoreAllMocks();
  // Files that share this worker render without act().
  Reflect.deleteProperty(globalThis, "IS_REACT_ACT_ENVIRONMENT");
  expect(reactErrors).toEqual([]);
});

/** Renders `node`, then runs `quickly` once it is on the page and before its effects. */
async function renderThenAct(node: ReactNode, quickly: () => void) {
  function Quick() {
    useLayoutEffect(quickly, []);
    return null;
  }
  await act(async () => root.render(createElement("div", null, node, createElement(Quick))));
}

/** Types into a field as a browser does: the value, then an input event. */
function type(input: HTMLInputElement, words: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, words);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

const find = <T extends Element>(selector: string) => {
  const found = container.querySelector<T>(selector);
  if (!found) throw new Error(`${selector} is not on the page`);
  return found;
};

test("the reset runs for each change of the value, and not for the first one", async () => {
  const resets: string[] = [];
  let follow: (value: string) => void = () => {};
  function Follower() {
    const [value, setValue] = useState("a");
    follow = setValue;
    useResetOnChange(value, () => resets.push(value));
    return null;
  }
  await act(async () => root.render(createElement(Follower)));
  expect(resets).toEqual([]);
  await act(async () => follow("b"));
  await act(async () => follow("b"));
  await act(async () => follow("c"));
  expect(resets).toEqual(["b", "c"]);
});

test("words typed in the inbox's search before its first effects run are kept", async () => {
  const filters = createElement(InboxFilters, {
    filter: {},
    counts: undefined,
    types: undefined,
    onApply: () => {},
  });
  await renderThenAct(filters, () => type(find("#inbox-q"), "acme"));
  expect(find<HTMLInputElement>("#inbox-q").value).toBe("acme");
});

test("the inbox's filter applies a choice at once with the words typed, and follows the address back", async () => {
  const applied: unknown[] = [];
  const filtersAt = (filter: object) =>
    createElement(InboxFilters, {
      filter,
      counts: undefined,
      types: ["Automation"],
      onApply: (next: unknown) => applied.push(next),
    });
  await act(async () => root.render(filtersAt({})));
  type(find("#inbox-q"), "  acme ");
  const status = find<HTMLSelectElement>("#inbox-status");
  status.value = "answered";
  await act(async () => {
    status.dispatchEvent(new Event("change", { bubbles: true }));
  });
  expect(applied).toEqual([{ status: "answered", q: "acme" }]);

  // Back to an address with another filter: the form shows it.
  await act(async () => root.render(filtersAt({ type: "Automation", q: "turing" })));
  expect(find<HTMLSelectElement>("#inbox-type").value).toBe("Automation");
  expect(find<HTMLSelectElement>("#inbox-status").value).toBe("");
  expect(find<HTMLInputElement>("#inbox-q").value).toBe("turing");
});

test("the phone menu opened before its first effects run stays open, and a navigation closes it", async () => {
  const router = createMemoryRouter([{ path: "*", element: createElement(MobileMenu) }], {
    initialEntries: ["/"],
  });
  await renderThenAct(createElement(RouterProvider, { router }), () =>
    find<HTMLButtonElement>("button.mobile-nav__toggle").click(),
  );
  expect(find("button.mobile-nav__toggle").getAttribute("aria-expanded")).toBe("true");
  expect(find<HTMLUListElement>("#mobile-menu").hidden).toBe(false);

  await act(async () => router.navigate(ROUTES.weAre));
  expect(find("button.mobile-nav__toggle").getAttribute("aria-expanded")).toBe("false");
  expect(find<HTMLUListElement>("#mobile-menu").hidden).toBe(true);
});

test("a range picked in the audience area before its first effects run stays picked", async () => {
  const picker = createElement(RangePicker, {
    choice: { range: "30d" },
    period: { from: "2026-10-29", to: "2026-11-28", days: 31 },
    onChoose: () => {},
  });
  await renderThenAct(picker, () => find<HTMLInputElement>('input[value="custom"]').click());
  expect(find<HTMLInputElement>('input[value="custom"]').checked).toBe(true);
  expect(find<HTMLInputElement>('input[type="date"]').value).toBe("2026-10-29");
});
