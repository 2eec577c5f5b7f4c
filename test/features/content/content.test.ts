/**
 * Content editing in the console: versioned saves that
 * refuse a stale version, every version kept and restorable, reordering and
 * hiding that the public API and pages show at once, picture uploads checked
 * by their bytes, and only editors may write.
 */
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ASPECT_RATIO, MAX_UPSCALE } from "../../../src/server/platform/media/images.ts";
import {
  CONTENT_API,
  CONTENT_TEXTS,
  type Entry,
  IMAGE_FORMATS,
  type ListAnswer,
  MEDIA_API,
} from "../../../src/shared/admin/content.ts";
import { lastAuditId, startApp, type TestApp } from "../../support/app.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { multipartBody } from "../../support/multipart.ts";

const UPLOAD_MAX_MB = 1;

/** A photo as a camera leaves it: EXIF with the author and a copyright. */
function cameraPng(width = 1200, height = 900): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .png()
    .withExif({ IFD0: { Artist: "A Photographer", Copyright: "Somebody" } })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG whose header declares these sides but whose data holds one byte: its
 * metadata reads, decoding it fails. A refusal that names its sides was made
 * from the header, before any decoding.
 */
function declaredPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.alloc(1))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Every file below a folder, so a test can show a refusal wrote none. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.each(ENGINES)("console content on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), "media-"));
    t = await startApp(engine, { MEDIA_DIR: mediaDir, UPLOAD_MAX_MB: String(UPLOAD_MAX_MB) });
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
  });
  afterAll(() => t.close());

  const listOf = async (list: string) =>
    (await editor.request("GET", `${CONTENT_API}/${list}`)).json() as ListAnswer;
  const publicJson = async (url: string) => (await t.app.inject({ url })).json();
  const versionRows = (key: number) =>
    t.database.db
      .selectFrom("content_versions")
      .selectAll()
      .where("entity_key", "=", String(key))
      .where("entity", "=", "item")
      .orderBy("version")
      .execute();

  async function upload(
    kind: string,
    bytes: Buffer,
    filename: string,
    type: string,
    description?: string,
  ) {
    const { payload, contentType } = await multipartBody(bytes, filename, type);
    const query = new URLSearchParams({ kind, ...(description ? { description } : {}) });
    return t.app.inject({
      method: "POST",
      url: `${MEDIA_API}?${query}`,
      headers: { cookie: editor.cookie, "x-xsrf-token": editor.token, "content-type": contentType },
      payload,
    });
  }

  it("lists a list's records with their versions, in the site's order", async () => {
    const { entries, orderVersion } = await listOf("capabilities");
    expect(orderVersion).toBe(0);
    const publicNames = (await publicJson("/api/v1/items/?category=capabilities")).map(
      (item: { name: string }) => item.name,
    );
    expect(entries.map((entry) => entry.fields.name)).toEqual(publicNames);
    expect(entries[0]).toMatchObject({ version: 1, hidden: false });
    const team = await listOf("team");
    expect(team.entries[0]?.fields).toEqual(
      expect.objectContaining({ fullname: expect.any(String), imagePath: expect.any(String) }),
    );
  });

  it("saves a record as its next version, shown by the public API at once", async () => {
    const [first] = (await listOf("ethos")).entries as [Entry];
    const fields = { ...first.fields, description: "Edited in the console." };
    const saved = await editor.request("PUT", `${CONTENT_API}/ethos/${first.id}`, {
      fields,
      hidden: false,
      version: first.version,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ id: first.id, version: first.version + 1, fields });
    const ethos = await publicJson("/api/v1/items/?category=ethos");
    expect(ethos[0]).toEqual({ name: first.fields.name, description: "Edited in the console." });
  });

  it("refuses a save on a stale version with 409, and writes nothing", async () => {
    const [, second] = (await listOf("ethos")).entries as [Entry, Entry];
    const url = `${CONTENT_API}/ethos/${second.id}`;
    const first = await editor.request("PUT", url, {
      fields: { ...second.fields, name: "Saved first" },
      hidden: false,
      version: second.version,
    });
    expect(first.statusCode).toBe(200);
    const versionsBefore = await versionRows(second.id);

    const stale = await editor.request("PUT", url, {
      fields: { ...second.fields, name: "Saved second, from the old version" },
      hidden: false,
      version: second.version,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(CONTENT_TEXTS.stale("ethos card"));
    const row = await t.database.db
      .selectFrom("content_items")
      .select(["name", "version"])
      .where("id", "=", second.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "Saved first", version: second.version + 1 });
    expect(await versionRows(second.id)).toEqual(versionsBefore);
  });

  it("lets exactly one of two saves from the same version through when they race", async () => {
    const [, , , fourth] = (await listOf("ethos")).entries as [Entry, Entry, Entry, Entry];
    const save = (description: string) =>
      editor.request("PUT", `${CONTENT_API}/ethos/${fourth.id}`, {
        fields: { ...fourth.fields, description },
        hidden: false,
        version: fourth.version,
      });
    const answers = await Promise.all([save("One"), save("Two"), save("Three")]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json();
    const ethos = await publicJson("/api/v1/items/?category=ethos");
    expect(ethos[3].description).toBe(winner.fields.description);
  });

  it("keeps every version with who and when, and restores one as a new version", async () => {
    const [, , third] = (await listOf("ethos")).entries as [Entry, Entry, Entry];
    const url = `${CONTENT_API}/ethos/${third.id}`;
    const saved = await editor.request("PUT", url, {
      fields: { ...third.fields, description: "A second thought." },
      hidden: false,
      version: third.version,
    });
    expect(saved.statusCode).toBe(200);

    const { versions } = (await editor.request("GET", `${url}/versions`)).json();
    expect(versions).toEqual([
      expect.objectContaining({
        version: 2,
        author: "editor@firm.example",
        fields: { ...third.fields, description: "A second thought." },
      }),
      expect.objectContaining({ version: 1, author: "seed", fields: third.fields, hidden: false }),
    ]);
    const rows = await versionRows(third.id);
    expect(rows.map((row) => [row.version, row.author, JSON.parse(row.data)])).toEqual([
      [1, "seed", { fields: third.fields, hidden: false }],
      [2, "editor@firm.example", { fields: saved.json().fields, hidden: false }],
    ]);
    expect(rows[1]?.user_id).toEqual(expect.any(Number));

    // A restore based on a stale version is refused too.
    const staleRestore = await editor.request("POST", `${url}/versions/1/restore`, { version: 1 });
    expect(staleRestore.statusCode).toBe(409);
    expect(staleRestore.json().message).toBe(CONTENT_TEXTS.staleAction("ethos card"));

    const restored = await editor.request("POST", `${url}/versions/1/restore`, { version: 2 });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ version: 3, fields: third.fields });
    const ethos = await publicJson("/api/v1/items/?category=ethos");
    expect(ethos[2].description).toBe(third.fields.description);
    expect((await versionRows(third.id)).map((row) => row.version)).toEqual([1, 2, 3]);
  });

  // Industries, not capabilities: the listing above shows capabilities in the
  // order the seed gave them, which no test here changes.
  it("reorders a list in one request, and the public API shows the new order at once", async () => {
    const { entries, orderVersion } = await listOf("industries");
    const reversed = entries.map((entry) => entry.id).reverse();
    const response = await editor.request("PUT", `${CONTENT_API}/industries/order`, {
      orderVersion,
      ids: reversed,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().orderVersion).toBe(orderVersion + 1);
    const names = (await publicJson("/api/v1/items/?category=industries")).map(
      (item: { name: string }) => item.name,
    );
    expect(names).toEqual(entries.map((entry) => entry.fields.name).reverse());
    const order = await t.database.db
      .selectFrom("content_versions")
      .select(["data", "author"])
      .where("entity", "=", "order")
      .where("entity_key", "=", "industries")
      .where("version", "=", orderVersion + 1)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(order.data)).toEqual(reversed);

    // Moving from the order seen before is refused, and moves nothing.
    const stale = await editor.request("PUT", `${CONTENT_API}/industries/order`, {
      orderVersion,
      ids: entries.map((entry) => entry.id),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(CONTENT_TEXTS.staleOrder);
    // An order that leaves out a record is refused as well.
    const partial = await editor.request("PUT", `${CONTENT_API}/industries/order`, {
      orderVersion: orderVersion + 1,
      ids: reversed.slice(1),
    });
    expect(partial.statusCode).toBe(409);
    expect(
      (await publicJson("/api/v1/items/?category=industries")).map(
        (item: { name: string }) => item.name,
      ),
    ).toEqual(names);
  });

  it("hides a record from the public API and pages, keeps it in the console, and shows it again", async () => {
    const { entries } = await listOf("case-studies");
    const study = entries[0] as Entry;
    const url = `${CONTENT_API}/case-studies/${study.id}/visibility`;
    const page = `/weserve/case-studies/${study.fields.slug}`;
    expect((await t.app.inject({ url: page })).statusCode).toBe(200);

    const hidden = await editor.request("PUT", url, { hidden: true, version: study.version });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ hidden: true, version: study.version + 1 });
    const slugs = (await publicJson("/api/v1/case-studies/")).map((s: { slug: string }) => s.slug);
    expect(slugs).not.toContain(study.fields.slug);
    expect((await t.app.inject({ url: page })).statusCode).toBe(404);
    expect((await listOf("case-studies")).entries[0]).toMatchObject({ id: study.id, hidden: true });

    const stale = await editor.request("PUT", url, { hidden: false, version: study.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(CONTENT_TEXTS.staleAction("case study"));
    const shown = await editor.request("PUT", url, { hidden: false, version: study.version + 1 });
    expect(shown.statusCode).toBe(200);
    expect((await t.app.inject({ url: page })).statusCode).toBe(200);
  });

  it("saves a case study's outcome figure, and refuses a figure without its measure beside the field", async () => {
    const study = (await listOf("case-studies")).entries[1] as Entry;
    const url = `${CONTENT_API}/case-studies/${study.id}`;
    const lonely = await editor.request("PUT", url, {
      fields: { ...study.fields, outcomeFigure: "4×", outcomeLabel: " " },
      hidden: false,
      version: study.version,
    });
    expect(lonely.statusCode).toBe(400);
    expect(lonely.json().fields).toEqual({
      outcomeLabel: "Say what the figure measures, or clear the figure.",
    });

    const fields = {
      ...study.fields,
      outcomeFigure: "4×",
      outcomeLabel: "faster maintenance planning",
    };
    const saved = await editor.request("PUT", url, {
      fields,
      hidden: false,
      version: study.version,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().fields).toMatchObject({ outcomeFigure: "4×" });
    const highlights = await t.app.content.highlights();
    expect(highlights.outcomes[1]).toMatchObject({
      slug: study.fields.slug,
      figure: "4×",
      label: "faster maintenance planning",
    });
    // The public API answers as it always did: the outcome is the pages' alone.
    const listed = await publicJson("/api/v1/case-studies/");
    expect(Object.keys(listed[1]).sort()).toEqual(
      ["opportunity", "slug", "solution", "summary", "title", "work"].sort(),
    );
  });

  it("creates a record at the end of its list, and refuses a second with the same name", async () => {
    const fields = { name: "Quantum Readiness", description: "Knowing when it matters." };
    const created = await editor.request("POST", `${CONTENT_API}/capabilities`, {
      fields,
      hidden: false,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ version: 1, fields });
    const publicList = await publicJson("/api/v1/items/?category=capabilities");
    expect(publicList.at(-1)).toEqual(fields);

    const again = await editor.request("POST", `${CONTENT_API}/capabilities`, {
      fields,
      hidden: false,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().fields).toEqual({ name: expect.stringContaining("Quantum Readiness") });
  });

  it("refuses fields a list does not have, and empty required ones, naming each", async () => {
    const response = await editor.request("POST", `${CONTENT_API}/ethos`, {
      fields: { name: " ", description: "x", imagePath: "a.webp" },
      hidden: false,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Enter a name\./);
  });

  it("turns an uploaded PNG into an AVIF and a WebP at the portrait's size, without its metadata", async () => {
    const original = await cameraPng();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await upload("portrait", original, "portrait.png", "image/png");
    expect(response.statusCode).toBe(201);
    const { imagePath, url } = response.json();
    expect(imagePath).toMatch(/^[0-9a-f]{24}\.webp$/);
    expect(url).toBe(`/images/pictures/${imagePath}`);

    const name = imagePath.replace(/\.webp$/, "");
    for (const [file, format] of [
      [`${name}.avif`, "heif"],
      [`${name}.webp`, "webp"],
    ]) {
      const meta = await sharp(join(mediaDir, "pictures", file as string)).metadata();
      expect(meta).toMatchObject({ format, width: 480, height: 600 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
    }
    expect(existsSync(join(mediaDir, "originals", `${name}.png`))).toBe(true);
    const media = await t.database.db
      .selectFrom("media")
      .selectAll()
      .where("original_path", "=", join("originals", `${name}.png`))
      .executeTakeFirstOrThrow();
    expect(media).toMatchObject({ content_type: "image/png", width: 1200, height: 900 });

    const served = await t.app.inject({ url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(
      (await t.app.inject({ url: url.replace(".webp", ".avif") })).headers["content-type"],
    ).toBe("image/avif");
    expect((await t.app.inject({ url: `/images/originals/${name}.png` })).statusCode).toBe(404);
  });

  it("crops a card's picture where the editor put its focal point, and refuses a point outside it", async () => {
    // Red on the left half, blue on the right: wider than the card's 4:3 frame.
    const halves = await sharp({
      create: { width: 1500, height: 500, channels: 3, background: "#ff0000" },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 750, height: 500, channels: 3, background: "#0000ff" },
          })
            .png()
            .toBuffer(),
          left: 750,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const cropAt = async (focusX: string) => {
      const { payload, contentType } = await multipartBody(halves, "halves.png", "image/png");
      const query = new URLSearchParams({ kind: "item", focusX, focusY: "50" });
      return t.app.inject({
        method: "POST",
        url: `${MEDIA_API}?${query}`,
        headers: {
          cookie: editor.cookie,
          "x-xsrf-token": editor.token,
          "content-type": contentType,
        },
        payload,
      });
    };
    const meanColour = async (imagePath: string) => {
      const file = join(mediaDir, "items", imagePath);
      const meta = await sharp(file).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual({ width: 800, height: 600 });
      const [red, , blue] = (await sharp(file).stats()).channels;
      return { red: Math.round(red?.mean ?? 0), blue: Math.round(blue?.mean ?? 0) };
    };

    const left = await cropAt("0");
    const right = await cropAt("100");
    expect(left.statusCode, left.body).toBe(201);
    expect(right.statusCode, right.body).toBe(201);
    // The same file cropped at two points is two pictures.
    expect(left.json().imagePath).not.toBe(right.json().imagePath);
    const kept = {
      left: await meanColour(left.json().imagePath),
      right: await meanColour(right.json().imagePath),
    };
    expect(kept.left.red).toBeGreaterThan(240);
    expect(kept.left.blue).toBeLessThan(15);
    expect(kept.right.blue).toBeGreaterThan(240);
    expect(kept.right.red).toBeLessThan(15);

    const outside = await cropAt("150");
    expect(outside.statusCode).toBe(400);
    expect(outside.json().fields).toEqual({
      focusX: "The focal point is inside the picture: 0 to 100 %.",
    });
  });

  it("keeps an issue's 1500 × 400 banner its shape in every file it writes, a JPEG among them", async () => {
    const banner = await cameraPng(1500, 400);
    const response = await upload("issue", banner, "banner.png", "image/png", "A wide banner");
    expect(response.statusCode, response.body).toBe(201);
    const { imagePath, url } = response.json();
    expect(url).toBe(`/images/insight/${imagePath}`);
    const name = imagePath.replace(/\.webp$/, "");

    const written = readdirSync(join(mediaDir, "insight")).filter((file) => file.startsWith(name));
    expect(written.sort()).toEqual([`${name}.avif`, `${name}.jpg`, `${name}.webp`]);
    for (const [file, format] of [
      [`${name}.avif`, "heif"],
      [`${name}.webp`, "webp"],
      [`${name}.jpg`, "jpeg"],
    ] as const) {
      const meta = await sharp(join(mediaDir, "insight", file)).metadata();
      expect(meta.format, file).toBe(format);
      // Shrunk to fit the frame's 1104 pixels across, and nothing cut off.
      expect(meta.width, file).toBe(IMAGE_FORMATS.issue.width);
      expect(Math.abs(meta.height - (meta.width * 400) / 1500), file).toBeLessThanOrEqual(1);
      expect(meta.exif, file).toBeUndefined();
    }
    const media = await t.database.db
      .selectFrom("media")
      .select("variants")
      .where("original_path", "=", join("originals", `${name}.png`))
      .executeTakeFirstOrThrow();
    const variants = JSON.parse(media.variants) as {
      format: string;
      width: number;
      height: number;
    }[];
    expect(variants.map((variant) => variant.format).sort()).toEqual(["avif", "jpeg", "webp"]);
    for (const variant of variants) {
      expect(Math.abs(variant.height - (variant.width * 400) / 1500)).toBeLessThanOrEqual(1);
    }
  });

  it("never enlarges an issue's picture, and gives one with clear parts a PNG for mail", async () => {
    const clear = await sharp({
      create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const response = await upload("issue", clear, "mark.png", "image/png", "The firm's mark");
    expect(response.statusCode, response.body).toBe(201);
    const name = response.json().imagePath.replace(/\.webp$/, "");
    for (const file of [`${name}.webp`, `${name}.png`]) {
      const meta = await sharp(join(mediaDir, "insight", file)).metadata();
      expect(meta, file).toMatchObject({ width: 300, height: 200, hasAlpha: true });
    }
    expect(existsSync(join(mediaDir, "insight", `${name}.jpg`))).toBe(false);
  });

  it("refuses an issue's picture without its description, beside the description", async () => {
    const before = filesBelow(mediaDir);
    for (const description of [undefined, "   "]) {
      const response = await upload(
        "issue",
        await cameraPng(),
        "chart.png",
        "image/png",
        description,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ description: CONTENT_TEXTS.undescribedImage });
      expect(response.json().message).toContain(CONTENT_TEXTS.undescribedImage);
    }
    expect(filesBelow(mediaDir)).toEqual(before);
  });

  it("lets mail programs and feed readers load an issue's pictures, and nothing else", async () => {
    const chart = await upload("issue", await cameraPng(800, 500), "c.png", "image/png", "A chart");
    const portrait = await upload("portrait", await cameraPng(600, 800), "p.png", "image/png");
    const issuePicture = chart.json().url as string;
    const corp = async (url: string) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      return response.headers["cross-origin-resource-policy"];
    };
    expect(await corp(issuePicture)).toBe("cross-origin");
    expect(await corp(issuePicture.replace(/\.webp$/, ".jpg"))).toBe("cross-origin");
    expect(await corp(portrait.json().url)).toBe("same-origin");
    expect(await corp("/weare")).toBe("same-origin");
    expect(await corp("/api/v1/teams/")).toBe("same-origin");
  });

  it("shows a team member's new portrait on the public API once saved", async () => {
    const response = await upload("portrait", await cameraPng(600, 800), "me.jpg", "image/jpeg");
    const { imagePath } = response.json();
    const [member] = (await listOf("team")).entries as [Entry];
    const saved = await editor.request("PUT", `${CONTENT_API}/team/${member.id}`, {
      fields: { ...member.fields, imagePath },
      hidden: false,
      version: member.version,
    });
    expect(saved.statusCode).toBe(200);
    expect((await publicJson("/api/v1/teams/"))[0].imagePath).toBe(imagePath);
  });

  it("refuses a file that is not a picture, whatever its name says, with 415", async () => {
    const response = await upload("portrait", Buffer.from("just some text"), "x.png", "image/png");
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe(CONTENT_TEXTS.unsupportedType);
    const gif = await sharp({
      create: { width: 10, height: 10, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .gif()
      .toBuffer();
    expect((await upload("item", gif, "x.webp", "image/webp")).statusCode).toBe(415);
  });

  it("refuses a thin strip from its header with 422, before it can grow the process", async () => {
    const before = filesBelow(mediaDir);
    const strip = await sharp({
      create: { width: 1000, height: 2, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    const rss = process.memoryUsage().rss;
    const response = await upload("portrait", strip, "strip.png", "image/png");
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(CONTENT_TEXTS.tooThin(1000, 2, MAX_ASPECT_RATIO));
    // Covering the portrait's frame with it once built a canvas of 600 MB.
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);

    for (const [width, height] of [
      [1000, 2],
      [49_000_000, 1],
      [2, 4000],
    ] as const) {
      const declared = await upload("item", declaredPng(width, height), "x.png", "image/png");
      expect(declared.statusCode).toBe(422);
      expect(declared.json().message).toBe(CONTENT_TEXTS.tooThin(width, height, MAX_ASPECT_RATIO));
    }
    expect(filesBelow(mediaDir)).toEqual(before);
  });

  it("refuses a picture it would have to enlarge beyond the bound, saying the least size", async () => {
    const small = await cameraPng(100, 125);
    const response = await upload("portrait", small, "small.png", "image/png");
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      CONTENT_TEXTS.tooSmall(
        { width: 100, height: 125 },
        { width: 480, height: 600 },
        { width: 480 / MAX_UPSCALE, height: 600 / MAX_UPSCALE },
      ),
    );
  });

  it("refuses a picture whose data is not what its header promises with 422, writing nothing", async () => {
    const before = filesBelow(mediaDir);
    const response = await upload("item", declaredPng(1200, 900), "cut.png", "image/png");
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(CONTENT_TEXTS.unreadableImage);
    expect(filesBelow(mediaDir)).toEqual(before);
  });

  it("refuses a picture over UPLOAD_MAX_MB with 413", async () => {
    const tooLarge = Buffer.alloc(UPLOAD_MAX_MB * 1024 * 1024 + 1024, 1);
    const response = await upload("item", tooLarge, "large.png", "image/png");
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(CONTENT_TEXTS.tooLarge(UPLOAD_MAX_MB));
  });

  it("audits every change with who did it", async () => {
    const before = await lastAuditId(t.database);
    // One change of each kind, on a list no other test here looks at.
    const [need] = (await listOf("techneeds")).entries as [Entry];
    const created = await editor.request("POST", `${CONTENT_API}/techneeds`, {
      fields: { ...need.fields, name: "Audited Need", description: "Made to be audited." },
      hidden: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, fields } = created.json() as Entry;
    const url = `${CONTENT_API}/techneeds/${id}`;
    const changes = [
      ["PUT", url, { fields: { ...fields, description: "Changed." }, hidden: false, version: 1 }],
      ["POST", `${url}/versions/1/restore`, { version: 2 }],
      ["PUT", `${url}/visibility`, { hidden: true, version: 3 }],
      ["PUT", `${url}/visibility`, { hidden: false, version: 4 }],
    ] as const;
    for (const [method, path, payload] of changes) {
      expect((await editor.request(method, path, payload)).statusCode, path).toBe(200);
    }
    const { entries, orderVersion } = await listOf("techneeds");
    const reordered = await editor.request("PUT", `${CONTENT_API}/techneeds/order`, {
      orderVersion,
      ids: entries.map((entry) => entry.id).reverse(),
    });
    expect(reordered.statusCode).toBe(200);

    const actions = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "actor"])
      .where("action", "like", "content-%")
      .where("id", ">", before)
      .execute();
    expect(new Set(actions.map((a) => a.action))).toEqual(
      new Set([
        "content-saved",
        "content-restored",
        "content-reordered",
        "content-hidden",
        "content-shown",
        "content-created",
      ]),
    );
    expect(new Set(actions.map((a) => a.actor))).toEqual(new Set(["editor@firm.example"]));
  });

  it("answers a viewer 403 and a stranger 401 on every content route", async () => {
    const stranger = await anonymous(t.app);
    const routes = t.app.consoleRoutes.filter(
      (route) => route.url.startsWith(CONTENT_API) || route.url.startsWith(MEDIA_API),
    );
    expect(routes.filter((route) => route.method !== "GET").length).toBeGreaterThanOrEqual(30);
    for (const route of routes) {
      const url = route.url.replace(":id", "1").replace(":version", "1");
      expect((await viewer.request(route.method, url, {})).statusCode, url).toBe(403);
      expect((await stranger.request(route.method, url, {})).statusCode, url).toBe(401);
    }
  });
});
