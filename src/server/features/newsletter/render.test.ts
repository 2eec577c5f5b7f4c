/**
 * An Insight issue's rendering: the archive page's HTML,
 * and the e-mail's HTML and text parts, made once with a placeholder for each
 * recipient's unsubscribe URL and for each merge field, and personalised
 * per recipient.
 */
import { describe, expect, it } from "vitest";
import { unwrapped } from "../../../../test/support/mail-text.ts";
import { COLORS } from "../../../shared/design-tokens.ts";
import { FALLBACK_MAX, fillMergeFields, MERGE_FIELDS } from "../../../shared/merge-fields.ts";
import { SITE } from "../../../shared/site.ts";
import {
  type IssueSource,
  personalise,
  renderIssue,
  UNSUBSCRIBE_URL_PLACEHOLDER,
} from "./render.ts";

const ORIGIN = "https://www.firm.example";
const ISSUE_URL = `${ORIGIN}/insight/data-platforms-2026`;

const ISSUE: IssueSource = {
  slug: "data-platforms-2026",
  title: "Data platforms & what we learned",
  summary: "Three lessons from a year of moving warehouses to the cloud.",
  body: [
    "## Where we started",
    "",
    "Most of the platforms we met this year had grown one pipeline at a time, and nobody could say any longer which report depended on which job, so every change took weeks of careful testing.",
    "",
    "Read [our work](/weserve), the [next issue](next-issue) or [the survey](https://survey.example/?a=1&b=2) *now*, with **care** and `dbt`.",
    "",
    "> Measure before you move.",
    "",
    "- Inventory",
    "- Migrate",
    "",
    "1. First",
    "2. Second",
    "",
    "![A chart of costs](/images/pictures/abc123.webp)",
    "",
    "```sql",
    "select 1;",
    "```",
    "",
    "---",
    "",
    "The end.",
  ].join("\n"),
};

const HOSTILE: IssueSource = {
  ...ISSUE,
  body: [
    "<script>alert(1)</script>",
    "",
    'Look: <img src="x" onerror="alert(2)">',
    "",
    "[x](javascript:alert(1))",
  ].join("\n"),
};

/** Every opening tag of an element in some HTML, e.g. all the `<li …>`. */
const openingTags = (html: string, name: string) =>
  html.match(new RegExp(`<${name}(?=[\\s/>])[^>]*>`, "g")) ?? [];

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

const rendered = renderIssue(ISSUE, { origin: ORIGIN });

describe("raw HTML in the Markdown", () => {
  const hostile = renderIssue(HOSTILE, { origin: ORIGIN });

  it.each([
    ["web", hostile.webHtml],
    ["e-mail", hostile.emailHtml],
  ])("comes out escaped as text in the %s HTML", (_, html) => {
    expect(html).not.toContain("<script");
    expect(openingTags(html, "img")).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=&quot;x&quot; onerror=&quot;alert(2)&quot;&gt;");
  });

  it.each([
    ["web", hostile.webHtml],
    ["e-mail", hostile.emailHtml],
  ])("cannot make a javascript: link in the %s HTML", (_, html) => {
    expect(html).not.toMatch(/javascript:[^<]*<\/a>|href="javascript:/i);
    expect(html).toContain("[x](javascript:alert(1))");
  });
});

describe("URLs", () => {
  it("stay as written on the web page", () => {
    expect(rendered.webHtml).toContain('<a href="/weserve">our work</a>');
    expect(rendered.webHtml).toContain('<a href="next-issue">next issue</a>');
    expect(rendered.webHtml).toContain('src="/images/pictures/abc123.webp"');
  });

  it("are absolute in the e-mail: against the origin, or the issue's page for a page-relative one", () => {
    const hrefs = openingTags(rendered.emailHtml, "a").map((tag) => attribute(tag, "href"));
    expect(hrefs).toContain(`${ORIGIN}/weserve`);
    expect(hrefs).toContain(`${ORIGIN}/insight/next-issue`);
    const [image] = openingTags(rendered.emailHtml, "img");
    expect(attribute(image ?? "", "src")).toBe(`${ORIGIN}/images/pictures/abc123.webp`);
    expect(rendered.emailHtml).not.toMatch(/\s(?:href|src)="(?!https?:)/);
  });

  it("that are absolute already are left as they are, with no tracking added", () => {
    for (const html of [rendered.webHtml, rendered.emailHtml]) {
      expect(html).toContain('href="https://survey.example/?a=1&amp;b=2"');
    }
  });
});

describe("styles", () => {
  const BODY_ELEMENTS = ["h2", "p", "a", "em", "strong", "code", "blockquote", "ul", "ol", "li"];
  const ALL = [...BODY_ELEMENTS, "img", "pre", "hr"];

  it.each(ALL)("every <%s> in the e-mail has an inline style", (name) => {
    const tags = openingTags(rendered.emailHtml, name);
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(attribute(tag, "style")).toMatch(/\S/);
  });

  it("come from the design tokens", () => {
    const [link] = openingTags(rendered.emailHtml, "a");
    expect(attribute(link ?? "", "style")).toContain(`color:${COLORS.accentInk}`);
    const [quote] = openingTags(rendered.emailHtml, "blockquote");
    expect(attribute(quote ?? "", "style")).toContain(COLORS.accent);
  });

  it("let images shrink to a phone's width, and give Outlook a width that fits the column", () => {
    const [image] = openingTags(rendered.emailHtml, "img");
    expect(attribute(image ?? "", "style")).toMatch(/max-width:100%;.*height:auto/);
    const width = Number(attribute(image ?? "", "width"));
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThanOrEqual(600);
  });

  it("are none on the web page, which has the site's stylesheet", () => {
    for (const name of ALL) expect(openingTags(rendered.webHtml, name).length).toBeGreaterThan(0);
    expect(rendered.webHtml).not.toContain("style=");
  });
});

describe("the e-mail's layout", () => {
  it("is an XHTML document with a fluid column of at most 600 px", () => {
    expect(rendered.emailHtml).toMatch(
      /^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1.0 Transitional/,
    );
    expect(rendered.emailHtml).toMatch(/<table[^>]*width="100%"[^>]*style="max-width:600px/);
  });

  it("starts with the summary as the hidden preview text", () => {
    const firstText = /<body[^>]*>(?:<[^>]+>)*([^<]+)/.exec(rendered.emailHtml)?.[1];
    expect(firstText).toBe(ISSUE.summary);
    const preview = rendered.emailHtml.slice(0, rendered.emailHtml.indexOf(ISSUE.summary));
    expect(preview).toMatch(/<div style="display:none[^"]*"[^>]*>$/);
  });

  it("has the firm's name, the view-in-browser link, the title and the footer", () => {
    expect(rendered.emailHtml).toContain(`>${SITE.firmName}</p>`);
    expect(rendered.emailHtml).toMatch(
      new RegExp(`<a href="${ISSUE_URL}"[^>]*>View this issue in your browser</a>`),
    );
    expect(rendered.emailHtml).toMatch(/<h1[^>]*>Data platforms &amp; what we learned<\/h1>/);
    expect(rendered.emailHtml).toContain(
      "You receive Insight because you subscribed on our website.",
    );
    expect(rendered.emailHtml).toMatch(
      new RegExp(`<a href="${UNSUBSCRIBE_URL_PLACEHOLDER}"[^>]*>Unsubscribe</a>`),
    );
  });
});

describe("the text part", () => {
  const lines = rendered.emailText.split("\n");
  const whole = unwrapped(rendered.emailText);

  it("has no HTML left", () => {
    expect(rendered.emailText).not.toMatch(/<\/?[a-z][^>]*>|&[a-z]+;|&#\d+;/i);
    expect(rendered.emailText).toContain("Data platforms & what we learned");
  });

  it("shows links as their text and URL, with the view-in-browser and unsubscribe URLs", () => {
    expect(whole).toContain(`View this issue in your browser [${ISSUE_URL}]`);
    expect(whole).toContain(`our work [${ORIGIN}/weserve]`);
    expect(whole).toContain(`Unsubscribe [${UNSUBSCRIBE_URL_PLACEHOLDER}]`);
  });

  it("leaves out the hidden preview text", () => {
    expect(rendered.emailText).not.toContain(ISSUE.summary);
  });

  it("is wrapped at 78 characters", () => {
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(78);
    expect(lines).toContain(
      "Most of the platforms we met this year had grown one pipeline at a time, and",
    );
  });
});

describe("pictures", () => {
  const BANNER = `${ORIGIN}/images/insight/0123456789abcdef01234567`;
  const SMALL = `${ORIGIN}/images/insight/76543210fedcba9876543210`;
  const withPictures = renderIssue(
    {
      ...ISSUE,
      body: [
        "![Bars: the cloud bill per quarter](/images/insight/0123456789abcdef01234567.webp)",
        "",
        "![The firm's mark](/images/insight/76543210fedcba9876543210.webp)",
        "",
        "![A picture from elsewhere](https://cdn.example/x.webp)",
      ].join("\n"),
    },
    {
      origin: ORIGIN,
      pictures: new Map([
        [`${BANNER}.webp`, { src: `${BANNER}.jpg`, width: 1104, height: 294 }],
        [`${SMALL}.webp`, { src: `${SMALL}.png`, width: 300, height: 200 }],
      ]),
    },
  );
  const images = openingTags(withPictures.emailHtml, "img");

  it("are their mail copies in the e-mail, at their own shape, never wider than the body", () => {
    expect(images.map((tag) => attribute(tag, "src"))).toEqual([
      `${BANNER}.jpg`,
      `${SMALL}.png`,
      "https://cdn.example/x.webp",
    ]);
    const sizes = images.map((tag) => [attribute(tag, "width"), attribute(tag, "height")]);
    // 1104 × 294 shown 552 wide keeps its 1104:294; a small one keeps its own size.
    expect(sizes).toEqual([
      ["552", "147"],
      ["300", "200"],
      ["552", undefined],
    ]);
  });

  it("stay the WebP the Markdown names on the web page", () => {
    expect(withPictures.webHtml).toContain(
      'src="/images/insight/0123456789abcdef01234567.webp" alt="Bars: the cloud bill per quarter"',
    );
    expect(withPictures.webHtml).not.toContain(".jpg");
  });

  it("are their descriptions in the text part", () => {
    const whole = unwrapped(withPictures.emailText);
    expect(whole).toContain("[Picture: Bars: the cloud bill per quarter]");
    expect(whole).toContain("[Picture: The firm's mark]");
    expect(whole).toContain("[Picture: A picture from elsewhere]");
    expect(unwrapped(rendered.emailText)).toContain("[Picture: A chart of costs]");
  });
});

describe("personalise", () => {
  const url = `${ORIGIN}/unsubscribe?token=a.b&x="y'<z>$&`;
  const copy = personalise(rendered, url);

  it("puts the recipient's URL in both parts, escaped in the HTML", () => {
    expect(copy.html).toContain(
      `<a href="${ORIGIN}/unsubscribe?token=a.b&amp;x=&quot;y&#39;&lt;z&gt;$&amp;"`,
    );
    expect(copy.html).not.toContain(url);
    expect(copy.text).toContain(`[${url}]`);
  });

  it("leaves no placeholder in either part", () => {
    expect(copy.html).not.toContain(UNSUBSCRIBE_URL_PLACEHOLDER);
    expect(copy.text).not.toContain(UNSUBSCRIBE_URL_PLACEHOLDER);
  });

  it("refuses a rendering that lost the placeholder: no copy goes out without its own link", () => {
    expect(() => personalise({ emailHtml: rendered.emailHtml, emailText: "no link" }, url)).toThrow(
      /placeholder/,
    );
  });

  it("replaces every occurrence", () => {
    const twice = `${UNSUBSCRIBE_URL_PLACEHOLDER} and ${UNSUBSCRIBE_URL_PLACEHOLDER}`;
    expect(personalise({ emailHtml: twice, emailText: twice }, "https://u.example/1")).toEqual({
      html: "https://u.example/1 and https://u.example/1",
      text: "https://u.example/1 and https://u.example/1",
    });
  });
});

describe("merge fields", () => {
  const fallbackOf60 = `dear ${"reader ".repeat(8)}`.slice(0, FALLBACK_MAX);
  const GREETING: IssueSource = {
    ...ISSUE,
    title: "Hello {first_name|there}, three lessons",
    summary: "For {first_name|you} and the {company} team.",
    body: [
      "Dear {first_name|<b>friend</b> & co} {last_name},",
      "",
      `A paragraph long enough to be wrapped in the text part, where the fallback {first_name|${fallbackOf60}} must come through whole.`,
      "",
      `Not a field: {first_name|${"x".repeat(FALLBACK_MAX + 1)}}, {first_name|two\nlines}, {email} and {First_Name}.`,
    ].join("\n"),
  };
  const rendered = renderIssue(GREETING, { origin: ORIGIN });
  const url = `${ORIGIN}/unsubscribe?token=t`;
  const ada = personalise(rendered, url, { firstName: "Ada <Al> & co", lastName: "Lovelace" });
  const nameless = personalise(rendered, url, {});

  it("puts the reader's values in both parts, escaped in the HTML", () => {
    expect(ada.html).toContain("Dear Ada &lt;Al&gt; &amp; co Lovelace,");
    expect(unwrapped(ada.text)).toContain("Dear Ada <Al> & co Lovelace,");
    expect(ada.html).toContain("Hello Ada &lt;Al&gt; &amp; co, three lessons");
    expect(ada.html).toContain("For Ada &lt;Al&gt; &amp; co and the {company} team.");
  });

  it("reads the fallback, or nothing, where the reader has no value", () => {
    expect(nameless.html).toContain("Dear &lt;b&gt;friend&lt;/b&gt; &amp; co ,");
    expect(unwrapped(nameless.text)).toContain("Dear <b>friend</b> & co ,");
    expect(unwrapped(nameless.text)).toContain(`the fallback ${fallbackOf60} must come through`);
    expect(nameless.html).toContain("Hello there, three lessons");
  });

  it("leaves no placeholder in a copy, and leaves what is not a field as written", () => {
    for (const part of [ada.html, ada.text, nameless.html, nameless.text]) {
      expect(part).not.toContain("{{merge:");
      expect(part).not.toContain("{last_name}");
    }
    const notFields = unwrapped(nameless.text);
    expect(notFields).toContain(`{first_name|${"x".repeat(FALLBACK_MAX + 1)}}`);
    expect(notFields).toContain("{email} and {First_Name}.");
  });

  it("shows the fallbacks on the archive page, which has no reader", () => {
    expect(rendered.webHtml).toContain("Dear &lt;b&gt;friend&lt;/b&gt; &amp; co ,");
    expect(rendered.webHtml).toContain(`the fallback ${fallbackOf60} must come through`);
    expect(rendered.webHtml).not.toContain("{last_name}");
    expect(rendered.webHtml).not.toContain("{{merge:");
  });

  it("fills a Subject with the reader's value or the fallback", () => {
    expect(fillMergeFields(GREETING.title, { firstName: "Ada" })).toBe("Hello Ada, three lessons");
    expect(fillMergeFields(GREETING.title, { firstName: "  " })).toBe("Hello there, three lessons");
    expect(fillMergeFields(GREETING.title)).toBe("Hello there, three lessons");
  });

  it("knows each field MERGE_FIELDS names, with a fallback of up to FALLBACK_MAX characters", () => {
    for (const field of Object.keys(MERGE_FIELDS)) {
      const longest = "x".repeat(FALLBACK_MAX);
      expect(fillMergeFields(`{${field}|${longest}}`)).toBe(longest);
      expect(fillMergeFields(`{${field}|${longest}x}`)).toBe(`{${field}|${longest}x}`);
    }
  });

  it("reads a body of unclosed fields once through", () => {
    const unclosed = `{first_name|${"a".repeat(FALLBACK_MAX)}`.repeat(2000);
    expect(fillMergeFields(unclosed)).toBe(unclosed);
    expect(
      personalise(renderIssue({ ...ISSUE, body: unclosed }, { origin: ORIGIN }), url).text,
    ).toContain("{first_name|aaa");
  });
});
