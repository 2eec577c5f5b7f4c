import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type InlineConfig, type Plugin } from "vite";

/**
 * React Router's package sends every import to its development build, whose
 * warnings (and their text) would travel to every visitor; its production
 * build sits beside it, the same code with the warnings switched off.
 */
const ROUTER_PRODUCTION = fileURLToPath(
  new URL("node_modules/react-router/dist/production/", import.meta.url),
);

/**
 * React Router 7's plugin starts Vite servers of its own with `envFile: false`,
 * which Vite 8 replaced by `envDir: false` (no .env files read) and warns
 * about at every start. This says the same in the new words.
 */
const envDirInsteadOfEnvFile: Plugin = {
  name: "env-dir-instead-of-env-file",
  config(config) {
    // The servers' own settings are the inline kind, which still has the old key.
    const inline: InlineConfig = config;
    if (inline.envFile !== false) return;
    delete inline.envFile;
    inline.envDir = false;
  },
};

// `npm run build` builds the site with this; `npm run dev` serves it through
// the real server with Vite as middleware (scripts/dev-server.ts).
export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [envDirInsteadOfEnvFile, reactRouter()],
  resolve: {
    // The browser's build only (ADR 049): the server renders with the copy
    // its own code imports, so both use one React Router.
    alias:
      command === "build" && !isSsrBuild
        ? [
            { find: /^react-router$/, replacement: `${ROUTER_PRODUCTION}index.mjs` },
            { find: /^react-router\/dom$/, replacement: `${ROUTER_PRODUCTION}dom-export.mjs` },
          ]
        : [],
  },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React, React DOM and React Router travel in one file (ADR 049):
          // every page loads all of them, and one file compresses smaller
          // than the two the bundler would otherwise cut them into. Its name
          // also stays the same across deploys that change only the site's code.
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
          ],
        },
      },
    },
  },
}));
