import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of docs/architecture.md, held by a test rather than a comment:
 * server/ never imports app/ (the server must not depend on what renders),
 * common/ imports neither (both sides load it), and app/'s components and
 * browser helpers import only types from server/ (values there are for
 * loaders and actions, which live in route modules, root.tsx and the entry).
 */
const ROOT = resolve(import.meta.dirname, "../..");

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

type Import = { file: string; target: string; typeOnly: boolean };

/** Every static import, export-from and dynamic import of a file, resolved to a repository path. */
function importsOf(file: string, text = readFileSync(join(ROOT, file), "utf8")): Import[] {
  const found: Import[] = [];
  const statement =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  for (const match of text.matchAll(statement)) {
    const specifier = match[3] ?? match[4] ?? "";
    if (!specifier.startsWith(".")) continue;
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
    found.push({ file, target, typeOnly: Boolean(match[2]) });
  }
  return found;
}

const under = (folder: string) => (path: string) =>
  path === folder || path.startsWith(`${folder}/`);
const isTest = (file: string) => /\.test\.tsx?$/.test(file);
/** The imports of a folder's source files (tests left out). */
const imports = (folder: string) =>
  sourceFiles(folder)
    .filter((file) => !isTest(file))
    .flatMap((file) => importsOf(file));

describe("import direction", () => {
  it("server/ imports nothing from app/", () => {
    const wrong = sourceFiles("server")
      .filter((file) => !isTest(file))
      .flatMap((file) => importsOf(file))
      .filter((i) => under("app")(i.target));
    expect(wrong).toEqual([]);
  });

  it("common/ imports nothing from app/ or server/", () => {
    const wrong = sourceFiles("common")
      .flatMap((file) => importsOf(file))
      .filter((i) => under("app")(i.target) || under("server")(i.target));
    expect(wrong).toEqual([]);
  });

  it("app/ components and helpers import only types from server/", () => {
    const wrong = [...sourceFiles("app/components"), ...sourceFiles("app/lib")]
      .filter((file) => !isTest(file))
      .flatMap((file) => importsOf(file))
      .filter((i) => under("server")(i.target) && !i.typeOnly);
    expect(wrong).toEqual([]);
  });

  it("server/bookings/ imports nothing from server/owner/ (the back office reads bookings)", () => {
    const wrong = sourceFiles("server/bookings")
      .flatMap((file) => importsOf(file))
      .filter((i) => under("server/owner")(i.target));
    expect(wrong).toEqual([]);
  });

  it("server/bookings/ and server/search/ import nothing from server/salons/ (salons reads them)", () => {
    // The salon pages show free times (bookings/) and search with the dictionary
    // (search/); what those need of a salon lives below them, so no loop forms.
    const wrong = [...sourceFiles("server/bookings"), ...sourceFiles("server/search")]
      .filter((file) => !isTest(file))
      .flatMap((file) => importsOf(file))
      .filter((i) => under("server/salons")(i.target));
    expect(wrong).toEqual([]);
  });

  it("the administrator's door and the salon's door import nothing of each other", () => {
    // What both doors use lives below them (the salon editor, the audit log, invitations, the
    // salon access check), so either side can change without reaching into the other.
    const wrong = [
      ...imports("server/admin").filter((i) => under("server/owner")(i.target)),
      ...imports("server/owner").filter((i) => under("server/admin")(i.target)),
    ];
    expect(wrong).toEqual([]);
  });

  it("what both doors share imports neither door", () => {
    const shared = [
      "server/salon-editor",
      "server/audit",
      "server/invitations",
      "server/salon-access",
    ];
    const wrong = shared
      .flatMap((folder) => imports(folder))
      .filter((i) => under("server/admin")(i.target) || under("server/owner")(i.target));
    expect(wrong).toEqual([]);
  });

  it("the audit log imports no other domain (every domain writes it)", () => {
    const wrong = imports("server/audit").filter(
      (i) =>
        under("server")(i.target) &&
        !under("server/audit")(i.target) &&
        !under("server/db")(i.target),
    );
    expect(wrong).toEqual([]);
  });

  it("server/api/ has no import circle (route modules take their types from api-deps.ts)", () => {
    // The registry (booking-api.ts, owner-api.ts) imports the route modules; were they to import
    // it back, even for a type, the 20 files would form one circle again.
    const files = sourceFiles("server/api").filter((file) => !isTest(file));
    const edges = new Map(
      files.map((file) => [
        file.replace(/\.tsx?$/, ""),
        importsOf(file)
          .map((i) => i.target)
          .filter(under("server/api")),
      ]),
    );
    expect(circles(edges)).toEqual([]);
  });

  it("finds the circles it is meant to catch", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(circles(edges)).toEqual([["a", "b", "c", "a"]]);
    expect(circles(new Map([["a", ["b"]]]))).toEqual([]);
  });

  it("reads the imports it is meant to catch", () => {
    const text = [
      'import { formatDate } from "../../app/lib/format";',
      'import type { Database } from "../db/client";',
      'export { x } from "./x";',
      'const m = await import("../../app/y");',
      "import {\n  a,\n  b,\n} from '../z';",
      'import "./side-effect";',
    ].join("\n");
    expect(importsOf("server/mail/t.ts", text)).toEqual([
      { file: "server/mail/t.ts", target: "app/lib/format", typeOnly: false },
      { file: "server/mail/t.ts", target: "server/db/client", typeOnly: true },
      { file: "server/mail/t.ts", target: "server/mail/x", typeOnly: false },
      { file: "server/mail/t.ts", target: "app/y", typeOnly: false },
      { file: "server/mail/t.ts", target: "server/z", typeOnly: false },
      { file: "server/mail/t.ts", target: "server/mail/side-effect", typeOnly: false },
    ]);
  });
});

/** Each import circle once, as the path that closes it, found by a depth-first walk. */
function circles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of edges.get(node) ?? []) walk(next, [...path, node]);
    done.add(node);
  };
  for (const node of edges.keys()) walk(node, []);
  return found;
}
