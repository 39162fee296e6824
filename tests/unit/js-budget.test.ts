import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  firstLoadFiles,
  measurePages,
  readRouteManifest,
  scriptsOfHtml,
} from "../../bench/js-budget";

let dir: string;
const manifest = {
  entry: { module: "/assets/entry.js", imports: ["/assets/react.js"] },
  routes: {
    root: { module: "/assets/root.js", imports: ["/assets/react.js"] },
    "routes/page": { module: "/assets/page.js", imports: ["/assets/shared.js"] },
    "routes/other": { module: "/assets/other.js", imports: ["/assets/shared.js"] },
  },
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "js-budget-"));
  const assets = path.join(dir, "assets");
  await mkdir(assets);
  await writeFile(
    path.join(assets, "manifest-1a2b.js"),
    `window.__reactRouterManifest=${JSON.stringify(manifest)};`,
  );
  for (const name of ["entry", "react", "root", "page", "shared", "other"]) {
    await writeFile(
      path.join(assets, `${name}.js`),
      `export const ${name} = "${name.repeat(50)}";`,
    );
  }
  // A precompressed copy is what a gzip client gets: it is counted as it is.
  await writeFile(path.join(assets, "react.js.gz"), Buffer.alloc(1000));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("bench/js-budget.ts", () => {
  it("counts the entry, each matched route and their imports once", () => {
    const files = firstLoadFiles(readRouteManifest(dir), ["root", "routes/page"]);
    expect(files.sort()).toEqual(
      [
        "/assets/entry.js",
        "/assets/page.js",
        "/assets/react.js",
        "/assets/root.js",
        "/assets/shared.js",
      ].sort(),
    );
  });

  it("sums the precompressed copy where there is one, gzip -9 otherwise", () => {
    const [row] = measurePages(dir, [
      { name: "page", path: "/", routes: ["root", "routes/page"], budgetKb: 1 },
    ]);
    const gz = (name: string) =>
      gzipSync(`export const ${name} = "${name.repeat(50)}";`, { level: 9 }).length;
    expect(row?.gzip).toBe(1000 + gz("entry") + gz("root") + gz("page") + gz("shared"));
  });

  it("fails loudly on a route the build does not have", () => {
    expect(() => firstLoadFiles(readRouteManifest(dir), ["root", "routes/gone"])).toThrow(
      /routes\/gone/,
    );
  });

  it("reads a rendered page's preloads and module imports", () => {
    const html = `<link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/assets/s.css"/>
      <script type="module">import "/assets/b.js"; import("/assets/c.js")</script><script src="https://x.example/t.js"></script>`;
    expect(scriptsOfHtml(html).sort()).toEqual(["/assets/a.js", "/assets/b.js", "/assets/c.js"]);
  });
});
