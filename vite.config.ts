import { randomUUID } from "node:crypto";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { precompress } from "./vite-plugins/precompress.ts";
import { serverOnly } from "./vite-plugins/server-only.ts";

// One id per build, compiled into the client and written to
// builds/latest.json; open tabs reload when the two differ.
const buildId = process.env.BUILD_ID ?? `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

function buildManifest(): Plugin {
  return {
    name: "build-manifest",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "builds/latest.json",
        source: JSON.stringify({ buildId }),
      });
    },
  };
}

// The server build's entry is our Hono app (server/app.ts), so Hono, the
// routes and the database code are bundled once and share module state.
export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  environments: {
    ssr: {
      build: { rollupOptions: { input: "./server/app.ts" } },
      // PGlite loads its WASM and extension bundles relative to its own files; pdfkit its
      // font metrics, and the receipt its Japanese font, from their packages (decision 0083).
      resolve: { external: ["@electric-sql/pglite", "pg", "pdfkit"] },
    },
  },
  plugins: [serverOnly(), tailwindcss(), reactRouter(), buildManifest(), precompress()],
});
