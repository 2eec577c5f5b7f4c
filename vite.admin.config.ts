/**
 * The console's own build: a single-page app under /admin, apart from the
 * site's build, so it adds no byte to the public pages (ADR 013).
 */
import { resolve } from "node:path";
import { defineConfig } from "vite";

const apiPort = process.env.API_PORT ?? "3000";

export default defineConfig({
  root: resolve(import.meta.dirname, "src/admin"),
  base: "/admin/",
  publicDir: false,
  build: {
    outDir: resolve(import.meta.dirname, process.env.BUILD_DIR ?? "build", "admin"),
    emptyOutDir: true,
  },
  server: { proxy: { "/api": `http://127.0.0.1:${apiPort}` } },
});
