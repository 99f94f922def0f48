// Builds the dashboard (web/) into dist/web, which the Hono server serves. In `npm run dev`
// the dev server proxies /api to a running `session-retention serve --port 5174`.
import { defineConfig } from "vite";

export default defineConfig({
  root: "web",
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // No source maps in the build: nothing a user needs, and they would publish the app's source and
  // comments. The dev server (`npm run dev`) maps as always; this only concerns `vite build`.
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      // @tanstack/preact-table marks some modules "use client" (a React Server Components hint that
      // means nothing in a browser-only bundle); the bundler warns about each in a boxed block on
      // every build. Only that directive is silenced: every other warning still prints.
      onwarn(warning, warn) {
        if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes('"use client"')) return;
        warn(warning);
      },
    },
  },
  // The proxied requests must look same-origin to the server's cross-site guard.
  server: {
    proxy: {
      "/api": {
        target: "http://127.0.0.1:5174",
        changeOrigin: true,
        headers: { Origin: "http://127.0.0.1:5174" },
      },
    },
  },
});
