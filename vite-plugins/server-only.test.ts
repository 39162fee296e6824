import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { serverImportProblem, serverOnly } from "./server-only";

const project = mkdtempSync(path.join(tmpdir(), "server-only-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
  writeFileSync(path.join(project, file), text);
}

/** A real client build of a tiny project whose entry is `entry`. */
function buildClient(entry: string) {
  return build({
    configFile: false,
    root: project,
    logLevel: "silent",
    plugins: [serverOnly()],
    build: { write: false, rollupOptions: { input: path.join(project, entry) } },
  });
}

write(
  "server/db/schema.ts",
  'export const table = "drizzle:Name";\nexport type Row = { id: string };\n',
);
write("common/labels.ts", 'export const label = "ヘアサロン";\n');

describe("serverOnly", () => {
  it("fails the client build when a browser module imports server/, naming both files", async () => {
    write("app/leaky.ts", 'import { table } from "../server/db/schema";\nconsole.log(table);\n');
    await expect(buildClient("app/leaky.ts")).rejects.toThrow(
      /server\/db\/schema\.ts is server-only code, but app\/leaky\.ts imports it/,
    );
  });

  it("lets through common/ and type-only imports of server/", async () => {
    write(
      "app/clean.ts",
      'import type { Row } from "../server/db/schema";\nimport { label } from "../common/labels";\n' +
        "const row: Row = { id: label };\nconsole.log(row);\n",
    );
    await expect(buildClient("app/clean.ts")).resolves.toBeDefined();
  });

  it("judges resolved paths, ignoring queries and virtual modules", () => {
    expect(serverImportProblem("/repo/server/x.ts?import", "/repo/app/a.tsx", "/repo")).toMatch(
      /^server\/x\.ts is server-only code, but app\/a\.tsx/,
    );
    expect(serverImportProblem("/repo/server-side/x.ts", "/repo/app/a.tsx", "/repo")).toBeNull();
    expect(serverImportProblem("/repo/common/x.ts", "/repo/app/a.tsx", "/repo")).toBeNull();
    expect(serverImportProblem("\0virtual:server/x", "/repo/app/a.tsx", "/repo")).toBeNull();
  });
});

// The real build's output, when one exists (npm test builds before e2e).
const assets = path.resolve("build/client/assets");
describe.skipIf(!existsSync(assets))("the built client", () => {
  it("contains no Drizzle table definitions", () => {
    const leaking = readdirSync(assets)
      .filter((file) => file.endsWith(".js"))
      .filter((file) =>
        /drizzle:|pgTable|drizzle-orm/.test(readFileSync(path.join(assets, file), "utf8")),
      );
    expect(leaking).toEqual([]);
  });
});
