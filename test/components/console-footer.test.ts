// @vitest-environment happy-dom
/**
 * The console's footer shows the release the server runs, asked of a real
 * server as the console asks it.
 */
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { ConsoleFooter } from "../../src/admin/layout/ConsoleFooter.tsx";
import { siteVersion } from "../../src/server/platform/version.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";

let t: TestApp;
let root: Root;
let container: HTMLElement;

beforeAll(async () => {
  const [sqlite] = ENGINES;
  if (!sqlite) throw new Error("SQLite engine missing");
  t = await startApp(sqlite, {}, { withPages: false });
  const origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
  // The console's calls go to the page's own origin: here, the server's.
  const { happyDOM } = window as unknown as { happyDOM: { setURL(url: string): void } };
  happyDOM.setURL(`${origin}/admin/`);
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
  container = document.body.appendChild(document.createElement("div"));
  root = createRoot(container);
});

afterAll(async () => {
  await act(async () => root.unmount());
  container.remove();
  await t.close();
});

test("shows the server's version", async () => {
  await act(async () => root.render(createElement(ConsoleFooter)));
  await vi.waitFor(() => expect(container.textContent).toBe(`Version ${siteVersion()}`));
  expect(container.querySelector("footer")).not.toBeNull();
});
