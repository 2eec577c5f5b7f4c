/**
 * The site in development: the real server (API, console API, forms, the
 * pages' loaders with their database context) on PORT, with the pages
 * rendered from Vite's development build and hot reload. Vite's middleware
 * answers its own requests (modules, /@vite/client, public files) first;
 * everything else goes to the app. Editing a source file drops the cached
 * pages, so the next request renders the change.
 */
import { createServer } from "node:http";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { pageRendererFor } from "../src/server/features/pages/renderer.ts";
import { startOrExit, startSite } from "../src/server/start.ts";

startOrExit(async () => {
  const server = createServer();
  const vite = await createViteServer({
    appType: "custom",
    server: { middlewareMode: true, hmr: { server } },
  });
  await startSite({
    renderer: async () =>
      pageRendererFor(
        () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
        "development",
      ),
    serverFactory: (handle) => {
      server.on("request", (request, response) =>
        vite.middlewares(request, response, () => handle(request, response)),
      );
      return server;
    },
    beforeListen(app) {
      vite.watcher.on("change", () => app.content.changed());
      app.addHook("onClose", () => vite.close());
    },
  });
});
