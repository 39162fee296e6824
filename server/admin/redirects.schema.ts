import { z } from "zod";
import { normalizeRulePath } from "../routing/redirect-rules";

/** Control characters and whitespace: never part of a path we would type or serve. */
const UNSAFE_CHARACTERS = /[\s\p{Cc}]/u;
/**
 * Sources the route rules never see (the middleware skips /api) or that must
 * stay reachable (a rule on /admin could lock administrators out of this page).
 */
const RESERVED_SOURCES = /^\/(api|admin|uploads|assets|builds)(\/|$)/;

const source = z
  .string({ error: "転送元のパスを入力してください。" })
  .trim()
  .min(1, "転送元のパスを入力してください。")
  .max(500, "転送元は500文字以内で入力してください。")
  .superRefine((value, ctx) => {
    const problem = !value.startsWith("/")
      ? "転送元は「/」で始まるサイト内のパスで入力してください（例：/campaign/2026）。"
      : value.startsWith("//")
        ? "転送元は「/」1つで始まるサイト内のパスで入力してください（「//」は使えません）。"
        : value.includes("\\")
          ? "転送元に「\\」は使えません。"
          : UNSAFE_CHARACTERS.test(value)
            ? "転送元に空白や制御文字は使えません。"
            : /[?#]/.test(value)
              ? "転送元にはパスだけを入力してください（「?」や「#」以降は含められません）。"
              : RESERVED_SOURCES.test(value)
                ? "管理画面・API・画像のパスは転送元にできません。"
                : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform(normalizeRulePath);

/**
 * A target on this site only: a path ("/…", never "//host" or a backslash,
 * which browsers read as another host), or an absolute URL of this site's
 * own origin, stored as its path. Anything else would make this site an
 * open redirect.
 */
const target = (publicOrigin: string) =>
  z
    .string({ error: "転送先を入力してください。" })
    .trim()
    .min(1, "転送先を入力してください。")
    .max(2000, "転送先は2000文字以内で入力してください。")
    .transform((value, ctx) => {
      const otherHost =
        "転送先に他のサイト（別のホスト）は指定できません。このサイト内のパス（/から始まる）を入力してください。";
      const refuse = (message: string) => {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      };
      if (value.includes("\\")) return refuse("転送先に「\\」は使えません。");
      if (UNSAFE_CHARACTERS.test(value)) return refuse("転送先に空白や制御文字は使えません。");
      if (value.startsWith("//")) return refuse(otherHost);
      if (value.startsWith("/")) return value;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return refuse(
          "転送先は「/」で始まるサイト内のパスか、このサイトのURL（http(s)://…）で入力してください。",
        );
      }
      if (url.origin !== publicOrigin || url.username || url.password) return refuse(otherHost);
      return `${url.pathname}${url.search}${url.hash}`;
    });

/** The add/edit form of /admin/redirects. */
export const redirectRuleSchema = (publicOrigin: string) =>
  z.object({
    path: source,
    target: target(publicOrigin),
    statusCode: z
      .enum(["301", "302"], { error: "転送の種類を選んでください。" })
      .transform((value): 301 | 302 => (value === "301" ? 301 : 302)),
  });
export type RedirectRuleForm = { path: string; target: string; statusCode: 301 | 302 };
