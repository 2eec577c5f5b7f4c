/**
 * What the Audience area leaves out, in the browser: a crawler's visit and
 * a link prefetch are not counted, while a person's visit, made after both,
 * is. The person's visit is the proof the counts were written: once it
 * shows, anything counted before it would show too.
 */
import { randomBytes } from "node:crypto";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { expect, test } from "./support/test.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

test("a crawler and a prefetch are not counted; a person is", async ({ browser, page }) => {
  const tag = randomBytes(4).toString("hex");
  const crawled = `crawler${tag}`;
  const prefetched = `prefetch${tag}`;
  const visited = `person${tag}`;

  const crawler = await browser.newContext({ userAgent: GOOGLEBOT });
  try {
    const crawlerPage = await crawler.newPage();
    const answer = await crawlerPage.goto(`/weare?utm_campaign=${crawled}`);
    expect(answer?.status()).toBe(200);
  } finally {
    await crawler.close();
  }

  // A page of the site that asks the browser to fetch another ahead of a click.
  const visitor = await browser.newContext();
  try {
    const visitorPage = await visitor.newPage();
    await visitorPage.goto("/privacy");
    const fetchedAhead = visitorPage.waitForResponse((response) =>
      response.url().includes(prefetched),
    );
    await visitorPage.evaluate((href) => {
      const link = document.createElement("link");
      link.rel = "prefetch";
      link.href = href;
      document.head.append(link);
    }, `/wedo?utm_campaign=${prefetched}`);
    const response = await fetchedAhead;
    expect(await response.request().headerValue("sec-purpose")).toContain("prefetch");

    await visitorPage.goto(`/weserve?utm_campaign=${visited}`);
  } finally {
    await visitor.close();
  }

  const viewer = await consoleAccount("viewer", "audience-counting");
  await signInToConsole(page, viewer, "/admin/audience?range=today");
  const campaigns = page.getByRole("region", { name: "UTM campaigns" });
  await expect(async () => {
    await page.reload();
    await expect(campaigns.getByRole("row", { name: new RegExp(visited) })).toBeVisible({
      timeout: 1000,
    });
  }).toPass();
  await expect(campaigns.getByRole("row", { name: new RegExp(crawled) })).toHaveCount(0);
  await expect(campaigns.getByRole("row", { name: new RegExp(prefetched) })).toHaveCount(0);
});
