import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// The server build's entry is our Hono app (server/app.ts), so Hono, the
// routes and the database code are bundled once and share module state.
export default defineConfig({
  environments: {
    ssr: {
      build: { rollupOptions: { input: "./server/app.ts" } },
      // PGlite loads its WASM and extension bundles relative to its own files.
      resolve: { external: ["@electric-sql/pglite", "pg"] },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
