/**
 * An Insight issue's rendering: the archive page's HTML,
 * and the e-mail's HTML and text parts, made once with a placeholder for each
 * recipient's unsubscribe URL and personalised per recipient.
 */
import { describe, expect, it } from "vitest";
import { unwrapped } from "../../../../test/support/mail-text.ts";
import { COLORS } from "../../../shared/design-tokens.ts";
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
