import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// `npm run build` builds the site with this; `npm run dev` serves it through
// the real server with Vite as middleware (scripts/dev-server.ts).
export default defineConfig({
  plugins: [reactRouter()],
});
