/**
 * The API reference at /api/docs: plain HTML rendered on the server from
 * the same OpenAPI document as /api/openapi.json, so it can never disagree
 * with the schemas. No script and no CDN (the CSP allows this site only);
 * the small stylesheet is inline, which the CSP permits for styles.
 */

type Json = Record<string, unknown>;
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  security?: Record<string, unknown>[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: Json;
  }[];
  requestBody?: {
    description?: string;
    required?: boolean;
    content?: Record<string, { schema?: Json }>;
  };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json>; securitySchemes?: Record<string, Json> };
};

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** A short type label: `Booking`, `string (uuid)`, `array of string`. */
function typeLabel(schema: Json | undefined): string {
  if (!schema) return "";
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const name = ref.split("/").at(-1) ?? ref;
    return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((o) => typeLabel(o as Json)).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "");
  if (type === "array") return `array of ${typeLabel(schema.items as Json | undefined)}`;
  const format = schema.format ? ` (${String(schema.format)})` : "";
  const values = Array.isArray(schema.enum) ? `: ${schema.enum.join(", ")}` : "";
  return escapeHtml(`${type}${format}${values}`);
}

function schemaBlock(schema: Json | undefined) {
  if (!schema) return "";
  return `<pre><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre>`;
}

function operationId(method: string, path: string) {
  return `op-${method}-${path.replace(/[^a-zA-Z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
}

function renderOperation(method: string, path: string, op: Operation) {
  const params = op.parameters ?? [];
  const paramRows = params
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? "必須" : "任意"}</td><td>${typeLabel(p.schema)}</td><td>${escapeHtml(p.description ?? "")}</td></tr>`,
    )
    .join("");
  const body = op.requestBody?.content
    ? Object.entries(op.requestBody.content)
        .map(
          ([type, media]) =>
            `<p>${escapeHtml(type)}: ${typeLabel(media.schema)}</p>${media.schema?.$ref ? "" : schemaBlock(media.schema)}`,
        )
        .join("")
    : "";
  const responses = Object.entries(op.responses ?? {})
    .map(([status, response]) => {
      const types = Object.entries(response.content ?? {})
        .map(([type, media]) => `${escapeHtml(type)} ${typeLabel(media.schema)}`)
        .join("<br>");
      return `<tr><td>${escapeHtml(status)}</td><td>${escapeHtml(response.description ?? "")}</td><td>${types}</td></tr>`;
    })
    .join("");
  const auth = op.security?.length
    ? '<p class="auth">ログインが必要（Bearer トークンまたはセッション Cookie）</p>'
    : "";
  return `<section class="op" id="${operationId(method, path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
${op.summary ? `<p><strong>${escapeHtml(op.summary)}</strong></p>` : ""}
${op.description ? `<p>${escapeHtml(op.description)}</p>` : ""}
${auth}
${params.length ? `<h4>パラメーター</h4><table><thead><tr><th>名前</th><th>場所</th><th>必須</th><th>型</th><th>説明</th></tr></thead><tbody>${paramRows}</tbody></table>` : ""}
${body ? `<h4>リクエスト本文</h4>${body}` : ""}
<h4>レスポンス</h4><table><thead><tr><th>ステータス</th><th>説明</th><th>内容</th></tr></thead><tbody>${responses}</tbody></table>
</section>`;
}

export function renderApiDocs(doc: OpenApiDocument) {
  const operations: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) operations.push({ method, path, op });
    }
  }
  const toc = operations
    .map(
      ({ method, path, op }) =>
        `<li><a href="#${operationId(method, path)}"><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a> ${escapeHtml(op.summary ?? "")}</li>`,
    )
    .join("");
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${schema.description ? `<p>${escapeHtml(String(schema.description))}</p>` : ""}${schemaBlock(schema)}</section>`,
    )
    .join("");
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(doc.info.title)} リファレンス</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.6}
body{max-width:60rem;margin:0 auto;padding:1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #8886;padding:.25rem .5rem;text-align:left;vertical-align:top}
pre{overflow:auto;padding:.5rem;border:1px solid #8886;border-radius:4px;font-size:.85rem}
.op{border-top:1px solid #8886;padding-top:.5rem;margin-top:1.5rem}
.method{display:inline-block;min-width:4.5em;font-weight:bold;font-family:monospace}
.get{color:#1a6d2e}.post{color:#1f4fa8}.put{color:#8a5a00}.delete{color:#a32020}
@media (prefers-color-scheme:dark){.get{color:#7fd493}.post{color:#8fb4ff}.put{color:#f0c060}.delete{color:#ff9090}}
.auth{font-size:.9rem}
</style>
</head>
<body>
<header>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
${doc.info.description ? `<p>${escapeHtml(doc.info.description)}</p>` : ""}
<p>機械可読な定義: <a href="/api/openapi.json">/api/openapi.json</a>（OpenAPI 3.1）</p>
</header>
<main>
<nav aria-label="操作の一覧"><h2>操作</h2><ul>${toc}</ul></nav>
<h2>操作の詳細</h2>
${operations.map(({ method, path, op }) => renderOperation(method, path, op)).join("\n")}
<h2>スキーマ</h2>
${schemas}
</main>
</body>
</html>`;
}
