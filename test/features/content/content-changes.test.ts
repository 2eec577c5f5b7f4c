/**
 * Content is read once and served from memory; after a writer calls
 * app.content.changed(), the next API answer and the next page render show
 * the database as it is now.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

describe.each(SQLITE_ONLY)("content changes on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  const ethosNames = async () =>
    (await t.app.inject({ url: "/api/v1/items/?category=ethos" }))
      .json()
      .map((item: { name: string }) => item.name);
  const renameFirstEthos = (name: string) =>
    t.database.db
      .updateTable("content_items")
      .set({ name })
      .where("category", "=", "ethos")
      .where("position", "=", 0)
      .execute();

  it("serves a list from memory until the content is declared changed", async () => {
    const before = await ethosNames();
    await renameFirstEthos("Written behind the module's back");
    expect(await ethosNames()).toEqual(before);

    t.app.content.changed();
    expect((await ethosNames())[0]).toBe("Written behind the module's back");
  });

  it("renders the pages again after a change", async () => {
    await t.app.inject({ url: "/weare" });
    const renders = t.renderer.renders.length;
    await t.app.inject({ url: "/weare" });
    expect(t.renderer.renders.length).toBe(renders);

    await renameFirstEthos("Another name");
    t.app.content.changed();
    await t.app.inject({ url: "/weare" });
    expect(t.renderer.renders.slice(renders)).toEqual(["/weare"]);
  });
});
