import path from "node:path";
import type { Plugin } from "vite";

/**
 * Why an import must not reach the browser, or null when it may.
 *
 * Everything under `server/` is server-only (docs/decisions/0008-server-only-code.md):
 * the database schema, secrets, Node built-ins. Route modules may import it in
 * their loaders and actions because React Router removes those exports, and
 * the imports only they use, from the client build before any import is
 * resolved; `import type` is erased too. So an import that is still there
 * when the client build resolves it would really ship server code.
 */
export function serverImportProblem(
  resolvedId: string,
  importer: string | undefined,
  root: string,
): string | null {
  if (resolvedId.startsWith("\0")) return null;
  const file = path.resolve(resolvedId.split("?")[0] ?? resolvedId);
  const serverDir = path.join(path.resolve(root), "server") + path.sep;
  if (!file.startsWith(serverDir)) return null;
  const from = importer ? path.relative(root, importer.split("?")[0] ?? importer) : "an entry";
  return (
    `${path.relative(root, file)} is server-only code, but ${from} imports it into the ` +
    "browser bundle. Use it only in a loader or action, import only its types " +
    "(`import type`), or move what the browser needs to common/."
  );
}

/** Fails the client build (and the dev server's client requests) on any import of server/. */
export function serverOnly(): Plugin {
  let root = process.cwd();
  return {
    name: "server-only",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    configResolved(config) {
      root = config.root;
    },
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      const problem = serverImportProblem(resolved.id, importer, root);
      if (problem) this.error(problem);
      return resolved;
    },
  };
}
