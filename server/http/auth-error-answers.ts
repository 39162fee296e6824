import { authErrorMessage } from "../../common/auth-errors";
import { knownAuthErrorCode } from "../accounts/auth-error";

const GENERIC_MESSAGE = "入力内容に誤りがあります。確認して、もう一度お試しください。";

/**
 * Better Auth answers its own 4xx as `{ code, message }` in English. Every
 * /api error of ours is `{ error: { code, message } }` in Japanese, so its
 * answers are rewritten here: `error` carries the SPEC.md §8 code and its one
 * message (invalid_request for codes with no §8 counterpart), and the
 * top-level `code` and `message` stay for clients of Better Auth's format,
 * with the message in Japanese too.
 */
export async function withJapaneseAuthErrors(response: Response): Promise<Response> {
  if (response.status < 400 || response.status >= 500) return response;
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (!body || typeof body !== "object" || "error" in body) return response;
  const upstream = String((body as { code?: unknown }).code ?? "");
  const known = response.status === 429 ? "too-many-requests" : knownAuthErrorCode(upstream);
  const code = known ?? "invalid_request";
  const message = known ? authErrorMessage(known) : GENERIC_MESSAGE;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ error: { code, message }, code: upstream, message }), {
    status: response.status,
    headers,
  });
}
