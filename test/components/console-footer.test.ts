// @vitest-environment happy-dom
/**
 * The console's footer shows the release the server runs, asked of a real
 * server as the console asks it.
 */
import { act, createElement } from "react";
import { expect, test, vi } from "vitest";
import { ConsoleFooter } from "../../src/admin/layout/ConsoleFooter.tsx";
import { siteVersion } from "../../src/server/platform/version.ts";
import { consoleDomWithServer } from "../support/console-dom.ts";

const dom = consoleDomWithServer();

test("shows the server's version", async () => {
  await act(async () => dom.root.render(createElement(ConsoleFooter)));
  await vi.waitFor(() => expect(dom.container.textContent).toBe(`Version ${siteVersion()}`));
  expect(dom.container.querySelector("footer")).not.toBeNull();
});
