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
    client: {
      // React, React DOM, the scheduler and React Router in one chunk: every page loads all of
      // them, and as one file they gzip ~3 KB smaller than as the six chunks Rolldown makes by
      // itself (issue 42, bench/js-budget.ts). entryFileNames is React Router's default, which
      // its plugin only sets when the client build has no output options of its own.
      build: {
        rolldownOptions: {
          output: {
            entryFileNames: "assets/[name]-[hash].js",
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
                  priority: 10,
                },
              ],
            },
          },
        },
      },
    },
    ssr: {
      build: { rollupOptions: { input: "./server/app.ts" } },
      // PGlite loads its WASM and extension bundles relative to its own files; pdfkit its
      // font metrics, and the receipt its Japanese font, from their packages (decision 0083).
      resolve: { external: ["@electric-sql/pglite", "pg", "pdfkit"] },
    },
  },
  plugins: [serverOnly(), tailwindcss(), reactRouter(), buildManifest(), precompress()],
});
