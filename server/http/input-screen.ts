import type { Context, MiddlewareHandler } from "hono";
import { BadRequestError, type DomainError } from "../errors/domain-error";
import { domainErrorResponse, isApiPath } from "./errors";

/**
 * Hostile or broken input stopped before it reaches Better Auth or a route:
 * PostgreSQL refuses NUL in text, `request.formData()` throws on a body that
 * is not a form, and Better Auth builds URLs from callback parameters. Each
 * becomes a 4xx with a Japanese message here, once, instead of a 500 deep
 * inside. Page forms keep what was typed: NUL characters are removed from
 * their fields and the form goes on to its action as usual.
 */
const NUL_IN_URL = new BadRequestError(
  "invalid_character",
  "URLに使用できない文字が含まれています。入力内容を確認してください。",
);
const NUL_IN_BODY = new BadRequestError(
  "invalid_character",
  "送信内容に使用できない文字が含まれています。入力内容を確認してください。",
);
const NOT_A_FORM = new BadRequestError(
  "unsupported_content_type",
  "送信内容の形式が正しくありません。ページを再読み込みして、もう一度送信してください。",
  415,
);
const BROKEN_FORM = new BadRequestError(
  "malformed_body",
  "送信内容を読み取れませんでした。ページを再読み込みして、もう一度送信してください。",
);
const BAD_CALLBACK = new BadRequestError("invalid_callback_url", "戻り先のURLが正しくありません。");
const WRONG_TYPE = new BadRequestError("invalid_body", "送信内容の形式が正しくありません。");
const TOO_DEEP = new BadRequestError(
  "invalid_body",
  "送信内容の入れ子が深すぎます。送信内容の形式を確認してください。",
);
/** Our deepest request body is a few levels; Better Auth's are flat. */
const MAX_JSON_DEPTH = 32;

const NUL = "\u0000";
const ENCODED_NUL = /%00/i;
const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;
const URLENCODED = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART = /^multipart\/form-data\b/i;
const JSON_TYPE = /^application\/(.+\+)?json\b/i;

/** Better Auth's redirect parameters; it parses them as URLs and fails on anything else. */
const CALLBACK_PARAMS = ["callbackURL", "errorCallbackURL", "newUserCallbackURL", "redirectTo"];
/** Better Auth body fields that must be text when present (null reaches NOT NULL columns). */
const TEXT_FIELDS = [
  "name",
  "email",
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "newEmail",
];

type Env = { Variables: { inputError?: DomainError } };

export function screenInput(publicOrigin: string): MiddlewareHandler<Env> {
  return async (c, next) => {
    const api = isApiPath(c.req.path);
    const problem = await findProblem(c, api, publicOrigin);
    if (problem && api) return domainErrorResponse(c, problem);
    // Pages: React Router draws the error screen (root middleware throws it
    // before any action runs); the unreadable body is dropped. The method
    // stays, so the page cache never answers a refused POST with a page.
    if (problem) {
      c.set("inputError", problem);
      if (!SAFE_METHOD.test(c.req.method)) replaceBody(c, new URLSearchParams());
    }
    return next();
  };
}

async function findProblem(c: Context, api: boolean, publicOrigin: string) {
  const url = c.req.url;
  if (url.includes(NUL) || ENCODED_NUL.test(url)) return NUL_IN_URL;
  if (api && badCallback(new URL(url).searchParams, publicOrigin)) return BAD_CALLBACK;
  if (SAFE_METHOD.test(c.req.method)) return undefined;
  return api ? screenApiBody(c, publicOrigin) : screenPageForm(c);
}

/** A redirect target Better Auth can use: a same-site path, or a URL on this origin. */
function badCallback(params: URLSearchParams, publicOrigin: string) {
  return CALLBACK_PARAMS.some((name) => {
    const value = params.get(name);
    if (value === null || value === "") return false;
    if (/^\/(?![/\\])/.test(value)) return false;
    try {
      return new URL(value).origin !== publicOrigin;
    } catch {
      return true;
    }
  });
}

async function screenApiBody(c: Context, publicOrigin: string) {
  const type = c.req.header("content-type") ?? "";
  if (JSON_TYPE.test(type)) {
    const text = await c.req.raw.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return undefined; // Better Auth answers unreadable JSON itself (400).
    }
    const problem = screenJson(body);
    if (problem) return problem;
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const fields = body as Record<string, unknown>;
      if (TEXT_FIELDS.some((name) => name in fields && typeof fields[name] !== "string")) {
        return WRONG_TYPE;
      }
      const callbacks = CALLBACK_PARAMS.filter((name) => typeof fields[name] === "string");
      if (
        badCallback(new URLSearchParams(callbacks.map((n) => [n, String(fields[n])])), publicOrigin)
      ) {
        return BAD_CALLBACK;
      }
    }
    return undefined;
  }
  if (URLENCODED.test(type) || MULTIPART.test(type)) {
    const form = await readForm(c.req.raw);
    if (!form) return BROKEN_FORM;
    if ([...form.values()].some((value) => typeof value === "string" && value.includes(NUL))) {
      return NUL_IN_BODY;
    }
  }
  return undefined;
}

/**
 * Actions read `request.formData()`, which throws on anything but a whole
 * form. An empty body without a type counts as an empty form (the action's
 * own validation answers it); NUL characters are dropped from the fields.
 */
async function screenPageForm(c: Context) {
  const type = c.req.header("content-type") ?? "";
  if (!URLENCODED.test(type) && !MULTIPART.test(type)) {
    const text = type ? "x" : await c.req.raw.clone().text();
    if (text !== "") return NOT_A_FORM;
    replaceBody(c, new URLSearchParams());
    return undefined;
  }
  const form = await readForm(c.req.raw);
  if (!form) return BROKEN_FORM;
  const values = [...form.entries()];
  if (!values.some(([, value]) => typeof value === "string" && value.includes(NUL)))
    return undefined;
  const cleaned = new FormData();
  for (const [name, value] of values) {
    cleaned.append(name, typeof value === "string" ? value.replaceAll(NUL, "") : value);
  }
  replaceBody(c, URLENCODED.test(type) ? toSearchParams(cleaned) : cleaned);
  return undefined;
}

async function readForm(request: Request) {
  try {
    return await request.clone().formData();
  } catch {
    return undefined;
  }
}

function toSearchParams(form: FormData) {
  const params = new URLSearchParams();
  for (const [name, value] of form.entries())
    if (typeof value === "string") params.append(name, value);
  return params;
}

/** The same request with a new body; the body's own content type replaces the old one. */
function replaceBody(c: Context, body: URLSearchParams | FormData) {
  const old = c.req.raw;
  c.req.raw = new Request(old.url, {
    method: old.method,
    headers: withoutBody(old.headers),
    body,
    signal: old.signal,
  });
}

function withoutBody(headers: Headers) {
  const copy = new Headers(headers);
  copy.delete("content-type");
  copy.delete("content-length");
  return copy;
}

/**
 * NUL in any string or key of a parsed JSON body, or nesting deeper than any
 * request of ours needs. Walked with a stack, not recursion: JSON.parse takes
 * `[` × 20,000 happily and a recursive walk overflows the call stack (a 500).
 */
function screenJson(body: unknown): DomainError | undefined {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === "string") {
      if (value.includes(NUL)) return NUL_IN_BODY;
    } else if (typeof value === "object" && value !== null) {
      if (depth >= MAX_JSON_DEPTH) return TOO_DEEP;
      for (const [key, item] of Object.entries(value)) {
        if (key.includes(NUL)) return NUL_IN_BODY;
        stack.push([item, depth + 1]);
      }
    }
  }
  return undefined;
}
