import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

const apiPort = process.env.API_PORT ?? "3001";

export default defineConfig({
  plugins: [reactRouter()],
  server: {
    // `npm run dev`: the API runs beside Vite's dev server.
    proxy: { "/api": `http://127.0.0.1:${apiPort}` },
  },
});
