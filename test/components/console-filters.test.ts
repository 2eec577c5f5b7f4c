// @vitest-environment happy-dom
/**
 * A list's address filter puts what narrows the list in the address bar's
 * query, and refuses, by its field and in the server's words, a search the
 * server would refuse.
 */
import { act, createElement } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, expect, test } from "vitest";
import { AddressFilter } from "../../src/admin/components/AddressFilter.tsx";
import {
  STATUS_FILTERS,
  STATUS_LABELS,
  subscriberFilterSchema,
} from "../../src/shared/admin/subscribers.ts";
import { FIELD_REASONS } from "../../src/shared/field-rules.ts";

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
const container = document.body.appendChild(document.createElement("div"));
const root = createRoot(container);
afterEach(async () => act(async () => root.render(null)));

async function searchFor(words: string, status: string): Promise<URLSearchParams[]> {
  const searches: URLSearchParams[] = [];
  await act(async () =>
    root.render(
      createElement(AddressFilter, {
        schema: subscriberFilterSchema,
        q: "",
        choice: {
          label: "Status",
          name: "status",
          value: "all",
          options: STATUS_FILTERS,
          labels: STATUS_LABELS,
        },
        onSearch: (query: URLSearchParams) => searches.push(query),
      }),
    ),
  );
  const address = container.querySelector<HTMLInputElement>('input[type="search"]');
  const choice = container.querySelector("select");
  if (!address || !choice) throw new Error("the filter's fields are not on the page");
  // Past React's own value setter, as a person's typing and choosing are.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(address, words);
  address.dispatchEvent(new Event("input", { bubbles: true }));
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value")?.set?.call(choice, status);
  choice.dispatchEvent(new Event("change", { bubbles: true }));
  await act(async () => container.querySelector("form")?.requestSubmit());
  return searches;
}

test("a search goes in the query trimmed, without the all choice", async () => {
  const [query, ...more] = await searchFor("  ada@example.com ", "all");
  expect(query?.toString()).toBe("q=ada%40example.com");
  expect(more).toEqual([]);
  expect((await searchFor("", "awaiting")).map(String)).toEqual(["status=awaiting"]);
});

test("a search the server would refuse stays out of the query, refused by its field", async () => {
  expect(await searchFor("ada\u202E", "active")).toEqual([]);
  const address = container.querySelector('input[type="search"]');
  expect(address?.getAttribute("aria-invalid")).toBe("true");
  expect(container.querySelector(".field-error")?.textContent).toBe(FIELD_REASONS.textDirection);
  expect(document.activeElement).toBe(address);
});
