/**
 * What the log must never hold, found by its shape in any string the logger
 * writes (server/logger.ts): mail addresses, phone numbers and secrets
 * (tokens in URLs, bearer credentials, JWTs, Better Auth's random ids and
 * tokens), and the parameters of a failed Drizzle query. Names and kana
 * have no shape; they stay out because database errors are logged without
 * their parameters and detail (describeError).
 */

// Every pattern starts only where a run begins (a lookbehind or a literal):
// without it, a long path of letters costs quadratic time per log line.
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

// Japanese numbers: 0 then 9-10 more digits, or +81 then 9-10 digits,
// with or without hyphens or spaces, half- or full-width. Digits are counted
// in the replacer, so dates, postal codes and ids (hyphen-joined) stay.
const DIGIT = "[0-9０-９]";
const SEPARATOR = "[-\\s\\u2010-\\u2015\\u2212\\uFF0D]";
const PHONE = new RegExp(
  `(?<![\\w+\\-０-９])(?:\\+81${SEPARATOR}?|[0０])${DIGIT}{1,4}(?:${SEPARATOR}?${DIGIT}{1,4}){1,3}(?![\\w\\-０-９])`,
  "g",
);

/** `?token=…`, `&code=…`, `password=…`: the value of any parameter named like a secret. */
const SECRET_PARAMETER =
  /((?:^|[?&;\s"'])[\w.-]*(?:token|code|state|secret|password|otp|signature|key))=([^&\s"'#]+)/gi;
const CREDENTIALS = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** Better Auth's reset link carries its token in the path. */
const TOKEN_PATH = /(\/reset-password\/)[^/?#\s"']+/g;
/**
 * Random ids and tokens (Better Auth's are 24-32 letters and digits): long
 * runs with upper case, lower case and a digit. UUIDs, hashes (lower case)
 * and code identifiers (no digit) do not qualify.
 */
const OPAQUE = /(?<![\w-])(?=[\w-]*[A-Z])(?=[\w-]*[a-z])(?=[\w-]*\d)[\w-]{24,}(?![\w-])/g;
/** Drizzle's DrizzleQueryError message: "Failed query: …\nparams: …". */
const QUERY_PARAMS = /(^|\n)params: [\s\S]*$/;

export type RedactionOptions = {
  /** Addresses known to be no one's (the demo accounts), left as they are. */
  publicEmails?: ReadonlySet<string>;
};

export function redactText(text: string, options: RedactionOptions = {}): string {
  return text
    .replace(QUERY_PARAMS, "$1params: [redacted]")
    .replace(JWT, "[token]")
    .replace(CREDENTIALS, "$1 [token]")
    .replace(SECRET_PARAMETER, "$1=[token]")
    .replace(TOKEN_PATH, "$1[token]")
    .replace(EMAIL, (address) => (options.publicEmails?.has(address) ? address : "[email]"))
    .replace(PHONE, (number) => (isPhoneNumber(number) ? "[phone]" : number))
    .replace(OPAQUE, "[token]");
}

function isPhoneNumber(candidate: string) {
  const digits = candidate
    .replace(/[０-９]/g, (digit) => String(digit.charCodeAt(0) - 0xff10))
    .replace(/\D/g, "");
  const national = candidate.startsWith("+") ? `0${digits.slice(2)}` : digits;
  return national.length === 10 || national.length === 11;
}
