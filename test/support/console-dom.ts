/**
 * For component tests of the console against a real server (under the
 * happy-dom environment): a server on SQLite, listening, whose origin is the
 * test DOM's page address, since the console calls its own origin; and a
 * React root to render into. Registers its own beforeAll and afterAll.
 */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterAll, beforeAll } from "vitest";
import { startApp, type TestApp } from "./app.ts";
import { ENGINES } from "./engines.ts";

export interface ConsoleDom {
  /** The server the console's calls reach. */
  t: TestApp;
  root: Root;
  container: HTMLElement;
}

export function consoleDomWithServer(): ConsoleDom {
  const dom = {} as ConsoleDom;
  beforeAll(async () => {
    const [sqlite] = ENGINES;
    if (!sqlite) throw new Error("SQLite engine missing");
    dom.t = await startApp(sqlite, {}, { withPages: false });
    const origin = await dom.t.app.listen({ port: 0, host: "127.0.0.1" });
    const { happyDOM } = window as unknown as { happyDOM: { setURL(url: string): void } };
    happyDOM.setURL(`${origin}/admin/`);
    Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
    dom.container = document.body.appendChild(document.createElement("div"));
    dom.root = createRoot(dom.container);
  });
  afterAll(async () => {
    await act(async () => dom.root.unmount());
    dom.container.remove();
    await dom.t.close();
  });
  return dom;
}
