import type { Config } from "@react-router/dev/config";

// Pages are rendered on the server at run time and cached in memory (ADR 010).
export default {
  appDirectory: "src/web",
  // BUILD_DIR lets parallel work build side by side; `npm run build` uses build/.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ssr: true,
  // The whole route manifest goes with the first page: the site is small, and
  // no request for route discovery (/__manifest) is needed later.
  routeDiscovery: { mode: "initial" },
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
