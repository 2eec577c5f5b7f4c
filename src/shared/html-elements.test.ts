import { describe, expect, it } from "vitest";
import { expectLinear } from "../../test/support/growth.ts";
import { elementsNamed, replaceSpans, tagsBeginning } from "./html-elements.ts";

describe("finding elements in rendered HTML", () => {
  const page =
    '<head><style>a{}</style><link rel="modulepreload" href="/a.js"/></head>' +
    '<body><scripts>no</scripts><script src="/b.js"></script><script type="module">go()</script></body>';

  it("finds each whole element with its start tag and body, and not a longer name", () => {
    expect(elementsNamed(page, "script").map(({ startTag, body }) => [startTag, body])).toEqual([
      ['<script src="/b.js">', ""],
      ['<script type="module">', "go()"],
    ]);
    expect(elementsNamed(page, "style").map(({ body }) => body)).toEqual(["a{}"]);
  });

  it("finds start tags by their beginning", () => {
    expect(tagsBeginning(page, '<link rel="modulepreload"').map(({ tag }) => tag)).toEqual([
      '<link rel="modulepreload" href="/a.js"/>',
    ]);
  });

  it("cuts spans out and puts text in their place", () => {
    const scripts = elementsNamed(page, "script");
    expect(replaceSpans(page, scripts, () => "")).toBe(
      '<head><style>a{}</style><link rel="modulepreload" href="/a.js"/></head>' +
        "<body><scripts>no</scripts></body>",
    );
  });

  it("ignores an element that is never closed", () => {
    expect(elementsNamed("<p><script>x", "script")).toEqual([]);
  });

  it("takes time in step with the page, however many unclosed start tags it holds", async () => {
    await expectLinear(
      (size) => "<script>".repeat(size),
      (html) => elementsNamed(html, "script"),
    );
    await expectLinear(
      (size) => `${"<script x".repeat(size)}>`,
      (html) => elementsNamed(html, "script"),
    );
    await expectLinear(
      (size) => "<style>".repeat(size),
      (html) => elementsNamed(html, "style"),
    );
  });
});
