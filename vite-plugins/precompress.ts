import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** Text assets worth compressing; images other than SVG are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml)$/;
const MIN_BYTES = 1024;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside every text
 * asset of the client build, once, at build time. The server sends them as
 * they are (serveStatic's `precompressed`), instead of compressing each
 * request at the fast, weaker levels a dynamic page needs (server/http/
 * compression.ts): smaller first-load JavaScript and no CPU per request.
 */
export function precompress(): Plugin {
  return {
    name: "precompress",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    // Once the files are written: earlier, other plugins still rewrite chunks
    // (Vite fills in its preload lists in generateBundle), and the copies
    // would hold code the browser must never get.
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "";
      for (const fileName of Object.keys(bundle)) {
        // Vite's own manifest is for the build, which React Router deletes after reading: a
        // copy of it would be left for the server to hand out as a public file.
        if (!COMPRESSIBLE.test(fileName) || fileName.startsWith(".vite/")) continue;
        const file = path.join(dir, fileName);
        const bytes = await readFile(file);
        if (bytes.length < MIN_BYTES) continue;
        const brotli = brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        });
        await writeFile(`${file}.br`, brotli);
        await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}
