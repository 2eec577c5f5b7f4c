import type { Config } from "@react-router/dev/config";
import { NOT_FOUND_PATH, PRERENDERED_PATHS, UNSUBSCRIBE_PATH } from "./src/shared/routes.ts";

// Every route is prerendered to static HTML at build time; there is no
// server-side rendering at run time (ADR 001).
export default {
  appDirectory: "src/web",
  // BUILD_DIR lets parallel work build side by side; `npm run build` uses build/.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ssr: false,
  prerender: [...PRERENDERED_PATHS, UNSUBSCRIBE_PATH, NOT_FOUND_PATH],
} satisfies Config;
