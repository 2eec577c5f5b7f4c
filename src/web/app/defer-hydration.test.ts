import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { elementsNamed } from "../../shared/html-elements.ts";
import { deferHydration, HYDRATION_SCRIPT_ID } from "./defer-hydration.ts";

/** The parts of a page as React Router 7 writes them. */
const MODULE_BODY = `import "/assets/manifest-1.js";
import * as route0 from "/assets/root-2.js";
window.__reactRouterRouteModules = {"root":route0};

import("/assets/entry.client-3.js");`;
const PAGE = [
  '<html><head><link rel="preload" as="font" href="/assets/inter.woff2"/>',
  '<link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/entry.client-3.js"/>',
  '<link rel="modulepreload" href="/assets/jsx-runtime-4.js" crossorigin="anonymous"/></head>',
  "<body><main>Hello</main><script>window.__reactRouterContext = {};</script>",
  `<script type="module" async="">${MODULE_BODY}</script></body></html>`,
].join("");

const inlineScripts = (html: string) =>
  elementsNamed(html, "script").map(({ startTag, body }) => ({
    attributes: startTag.slice("<script".length, -1),
    body,
  }));

/** A window that records what the starter script adds to the head, and when. */
function fakeWindow({ paintTiming = true } = {}) {
  const added: { tag: string; rel?: string; href?: string; type?: string; text?: string }[] = [];
  const queued: (() => void)[] = [];
  const paintObservers: ((list: { getEntriesByName: (name: string) => unknown[] }) => void)[] = [];
  class PerformanceObserver {
    static supportedEntryTypes = paintTiming ? ["paint", "resource"] : ["resource"];
    constructor(private readonly callback: (list: unknown, observer: unknown) => void) {}
    observe(options: { type: string; buffered: boolean }) {
      if (options.type === "paint" && options.buffered)
        paintObservers.push((list) => this.callback(list, this));
    }
    disconnect() {}
  }
  const globals = {
    document: {
      createElement: (tag: string) => ({ tag }),
      getElementById: (id: string) => (id === HYDRATION_SCRIPT_ID ? { text: MODULE_BODY } : null),
      head: { append: (element: (typeof added)[number]) => added.push(element) },
    },
    PerformanceObserver,
    requestAnimationFrame: (callback: () => void) => queued.push(callback),
    setTimeout: (callback: () => void) => queued.push(callback),
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    globals,
    added,
    paint: async (name = "first-contentful-paint") => {
      for (const observer of paintObservers)
        observer({ getEntriesByName: (n) => (n === name ? [{}] : []) });
      await settle();
    },
    /** Runs the frame callbacks and timers queued so far, and what they queue. */
    runQueued: async () => {
      while (queued.length > 0) queued.shift()?.();
      await settle();
    },
  };
}

const STARTED = [
  { tag: "link", rel: "modulepreload", href: "/assets/manifest-1.js" },
  { tag: "link", rel: "modulepreload", href: "/assets/entry.client-3.js" },
  { tag: "link", rel: "modulepreload", href: "/assets/jsx-runtime-4.js" },
  { tag: "script", type: "module", text: MODULE_BODY },
];

describe("deferHydration", () => {
  const html = deferHydration(PAGE);
  const scripts = inlineScripts(html);
  const starter = scripts.at(-1)?.body ?? "";

  it("takes the module preloads out and leaves the rest of the page as it was", () => {
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).toContain('<link rel="preload" as="font" href="/assets/inter.woff2"/>');
    expect(html).toContain("<main>Hello</main><script>window.__reactRouterContext = {};</script>");
  });

  it("writes React Router's module script as an inert block with the same text", () => {
    const inert = scripts.find((script) =>
      script.attributes.includes(`id="${HYDRATION_SCRIPT_ID}"`),
    );
    expect(inert?.attributes).toContain('type="text/x-deferred-module"');
    expect(inert?.body).toBe(MODULE_BODY);
    expect(scripts.filter((script) => script.attributes.includes('type="module"'))).toEqual([]);
  });

  it("starts hydration once the first contentful paint is reported, preloads first", async () => {
    const page = fakeWindow();
    runInNewContext(starter, page.globals);
    await page.paint("first-paint");
    expect(page.added).toEqual([]);
    await page.paint();
    expect(page.added).toEqual(STARTED);
  });

  it("takes the next frame for the paint where the Paint Timing API is missing", async () => {
    const page = fakeWindow({ paintTiming: false });
    runInNewContext(starter, page.globals);
    expect(page.added).toEqual([]);
    await page.runQueued();
    expect(page.added).toEqual(STARTED);
  });

  it("leaves a page without React Router's module script as it is", () => {
    const page = "<html><body><script>1</script></body></html>";
    expect(deferHydration(page)).toBe(page);
  });
});
