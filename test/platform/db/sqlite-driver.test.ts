import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  sqliteDriver,
  sqliteDriverPackage,
} from "../../../src/server/platform/db/sqlite-driver.ts";

describe("the SQLite driver", () => {
  it("is the Node-API build from Node 22 on and the header-built one on Node 20", () => {
    expect(sqliteDriverPackage("20.19.0")).toBe("better-sqlite3");
    expect(sqliteDriverPackage("22.0.0")).toBe("better-sqlite3-napi");
    expect(sqliteDriverPackage("24.21.0")).toBe("better-sqlite3-napi");
  });

  it("loads for the running Node, in the major version that Node needs, and opens a database", () => {
    const name = sqliteDriverPackage(process.versions.node);
    const { version } = createRequire(import.meta.url)(`${name}/package.json`);
    expect(Number(version.split(".")[0])).toBe(name === "better-sqlite3-napi" ? 13 : 12);
    const db = new (sqliteDriver())(":memory:");
    expect(db.prepare("select 1 + 1 as two").get()).toEqual({ two: 2 });
    db.close();
  });
});
