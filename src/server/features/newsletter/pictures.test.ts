/**
 * An issue's pictures as the firm made them: uploaded with their description,
 * shown in the e-mail through their JPEG or PNG copy at their own shape, in
 * the text part by their description; a body whose picture says nothing is
 * refused beside the body; and a picture inserted before mail copies existed
 * (only its WebP on disk) gets one the first time the e-mail shows it.
 */
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { newsletterDraft } from "../../../../test/support/newsletter.ts";
import { MEDIA_API } from "../../../shared/admin/content.ts";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../../shared/admin/newsletter.ts";
import { undescribedPicturesReason } from "./picture-descriptions.ts";

const ORIGIN = "https://www.firm.example";
const DESCRIPTION = "Bars: the cloud bill per quarter";

/** A chart as an editor exports one: wide and short. */
function banner(): Promise<Buffer> {
  return sharp({
    create: { width: 1500, height: 400, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .png()
    .toBuffer();
}

/** Every opening <img> tag in some HTML. */
const images = (html: string) => html.match(/<img\b[^>]*>/g) ?? [];
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

describe.each(SQLITE_ONLY)("an issue's pictures on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), "media-"));
    t = await startApp(engine, { MEDIA_DIR: mediaDir, PUBLIC_ORIGIN: ORIGIN });
    await createAccount(t.database, "editor");
    editor = await signIn(t.app, "editor@firm.example");
  });
  afterAll(() => t.close());

  async function uploadPicture(bytes: Buffer, description: string): Promise<string> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "chart.png");
    const request = new Request("http://localhost/", { method: "POST", body: form });
    const query = new URLSearchParams({ kind: "issue", description });
    const response = await t.app.inject({
      method: "POST",
      url: `${MEDIA_API}?${query}`,
      headers: {
        cookie: editor.cookie,
        "x-xsrf-token": editor.token,
        "content-type": request.headers.get("content-type") ?? "",
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().url;
  }

  async function createIssue(slug: string, body: string): Promise<IssueDetail> {
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, {
      ...newsletterDraft(slug),
      body,
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json();
  }

  it("shows the JPEG copy in the e-mail at the picture's own shape, and its description in the text", async () => {
    const url = await uploadPicture(await banner(), DESCRIPTION);
    const issue = await createIssue("cloud-bill", `The bill:\n\n![${DESCRIPTION}](${url})\n`);

    const email = await editor.request("GET", NEWSLETTER_PATHS.emailPreview(issue.id));
    expect(email.statusCode).toBe(200);
    const [picture = ""] = images(email.body);
    const jpeg = `${ORIGIN}${url.replace(/\.webp$/, ".jpg")}`;
    expect(attribute(picture, "src")).toBe(jpeg);
    expect(attribute(picture, "alt")).toBe(DESCRIPTION);
    // 1104 × 294 as stored, shown across the 552-pixel body.
    expect(attribute(picture, "width")).toBe("552");
    expect(attribute(picture, "height")).toBe("147");
    const served = await t.app.inject({ url: new URL(jpeg).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.headers["cross-origin-resource-policy"]).toBe("cross-origin");

    const text = await editor.request("GET", NEWSLETTER_PATHS.textPreview(issue.id));
    expect(text.body.replace(/\s+/g, " ")).toContain(`[Picture: ${DESCRIPTION}]`);
  });

  it("refuses to save a body with a picture that says nothing, beside the body", async () => {
    const url = await uploadPicture(await banner(), DESCRIPTION);
    const body = `![${DESCRIPTION}](${url})\n\nThen:\n\n![](${url})\n\nAnd ![ ](${url}).`;
    const reason = undescribedPicturesReason(body);
    expect(reason).toMatch(/^Pictures 2 and 3 of 3 have no description\./);

    const created = await editor.request("POST", NEWSLETTER_PATHS.list, {
      ...newsletterDraft("undescribed"),
      body,
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ message: reason, fields: { body: reason } });

    const issue = await createIssue("described", `![${DESCRIPTION}](${url})`);
    const saved = await editor.request("PUT", NEWSLETTER_PATHS.one(issue.id), {
      ...newsletterDraft("described"),
      body: `Only a picture: ![](${url})`,
      version: issue.version,
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.json().fields).toEqual({
      body: expect.stringMatching(/^Picture 1 of 1 has no description\./),
    });
    // Code is not a picture: writing about Markdown stays possible.
    expect(undescribedPicturesReason("Type `![](address)` to insert one.")).toBeUndefined();
  });

  it("refuses to send a draft saved with a picture that says nothing, and keeps it a draft", async () => {
    const url = await uploadPicture(await banner(), DESCRIPTION);
    const issue = await createIssue("older-draft", `![${DESCRIPTION}](${url})`);
    // As a draft saved before descriptions were required holds it.
    await t.database.db
      .updateTable("issues")
      .set({ body: `An older draft: ![](${url})` })
      .where("id", "=", issue.id)
      .execute();
    const send = await editor.request("POST", NEWSLETTER_PATHS.send(issue.id), {});
    expect(send.statusCode).toBe(400);
    expect(send.json().message).toMatch(/^Picture 1 of 1 has no description\./);
    const after: IssueDetail = (await editor.request("GET", NEWSLETTER_PATHS.one(issue.id))).json();
    expect(after.status).toBe("draft");
  });

  it("makes the mail copy of a picture inserted before there were any, the first time it is shown", async () => {
    // What an upload of kind "item" left before: the WebP and AVIF, cropped to 800 × 600.
    const name = "0123456789abcdef01234567";
    mkdirSync(join(mediaDir, "items"), { recursive: true });
    await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 10, g: 80, b: 40 } },
    })
      .webp()
      .toFile(join(mediaDir, "items", `${name}.webp`));
    const issue = await createIssue("older", `![${DESCRIPTION}](/images/items/${name}.webp)`);
    expect(existsSync(join(mediaDir, "items", `${name}.jpg`))).toBe(false);

    const email = await editor.request("GET", NEWSLETTER_PATHS.emailPreview(issue.id));
    const [picture = ""] = images(email.body);
    expect(attribute(picture, "src")).toBe(`${ORIGIN}/images/items/${name}.jpg`);
    expect([attribute(picture, "width"), attribute(picture, "height")]).toEqual(["552", "414"]);
    const copy = await sharp(join(mediaDir, "items", `${name}.jpg`)).metadata();
    expect(copy).toMatchObject({ format: "jpeg", width: 800, height: 600 });
  });
});
