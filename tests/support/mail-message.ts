/**
 * Reads an Internet message (RFC 5322 / MIME) as nodemailer writes it, for
 * the e2e mail-capture server: headers with RFC 2047 encoded words,
 * multipart bodies, base64 and quoted-printable parts, attachment names in
 * RFC 2231 form. Not a general mail parser (no mailparser in the project):
 * it covers what our own mails use, and fails loudly on a body it cannot
 * decode rather than guessing.
 */

export type ParsedAttachment = {
  filename: string;
  /** The type without its parameters, lowercased: "text/calendar". */
  contentType: string;
  /** The decoded content as UTF-8 text (our attachments are calendar files). */
  content: string;
};

export type ParsedMail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every href of the HTML part, in order, with character references decoded. */
  links: string[];
  attachments: ParsedAttachment[];
};

type Headers = Map<string, string[]>;
type Part = { headers: Headers; body: string };

/**
 * The raw message is handled as latin1, one character per byte, so a part's
 * bytes survive splitting and are decoded with its own charset at the end.
 */
export function parseMail(raw: Buffer | string): ParsedMail {
  const message = typeof raw === "string" ? raw : raw.toString("latin1");
  const root = splitPart(message);
  const collected = { text: "", html: "", attachments: [] as ParsedAttachment[] };
  collectParts(root, collected);
  return {
    from: decodeHeader(header(root.headers, "from")),
    to: decodeHeader(header(root.headers, "to")),
    subject: decodeHeader(header(root.headers, "subject")),
    text: collected.text,
    html: collected.html,
    links: hrefs(collected.html),
    attachments: collected.attachments,
  };
}

function splitPart(source: string): Part {
  const normalized = source.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? "" : normalized.slice(end + 2);
  const headers: Headers = new Map();
  // A line starting with white space continues the previous header (folding).
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { headers, body };
}

const header = (headers: Headers, name: string) => headers.get(name)?.[0] ?? "";

/** "text/plain; charset=utf-8; name=\"a.ics\"" → the type and its parameters (RFC 2231 joined). */
export function parseHeaderValue(value: string): { value: string; params: Map<string, string> } {
  const [first = "", ...rest] = splitParams(value);
  const pieces = new Map<string, { index: number; encoded: boolean; text: string }[]>();
  for (const param of rest) {
    const equals = param.indexOf("=");
    if (equals <= 0) continue;
    const key = param.slice(0, equals).trim().toLowerCase();
    let text = param.slice(equals + 1).trim();
    if (text.startsWith('"') && text.endsWith('"')) {
      text = text.slice(1, -1).replace(/\\(.)/g, "$1");
    }
    // name*0*=utf-8''%E4..., name*1*=..., name*=utf-8''..., or plain name=...
    const match = key.match(/^([^*]+)(?:\*(\d+))?(\*)?$/);
    if (!match?.[1]) continue;
    const list = pieces.get(match[1]) ?? [];
    list.push({ index: Number(match[2] ?? 0), encoded: match[3] === "*", text });
    pieces.set(match[1], list);
  }
  const params = new Map<string, string>();
  for (const [key, list] of pieces) {
    list.sort((a, b) => a.index - b.index);
    let charset = "utf-8";
    const decoded = list.map((piece, position) => {
      if (!piece.encoded) return decodeHeader(piece.text);
      let text = piece.text;
      if (position === 0) {
        const [declared, , rest = ""] = text.split("'");
        charset = declared || "utf-8";
        text = rest;
      }
      return decodeBytes(percentBytes(text), charset);
    });
    params.set(key, decoded.join(""));
  }
  return { value: first.trim().toLowerCase(), params };
}

/** Splits on semicolons outside quoted strings. */
function splitParams(value: string) {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    if (char === "\\" && quoted) {
      current += char + (value[++index] ?? "");
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ";" && !quoted) {
      parts.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
}

function collectParts(
  part: Part,
  into: { text: string; html: string; attachments: ParsedAttachment[] },
) {
  const type = parseHeaderValue(header(part.headers, "content-type") || "text/plain");
  if (type.value.startsWith("multipart/")) {
    const boundary = type.params.get("boundary");
    if (!boundary) throw new Error(`${type.value} without a boundary`);
    for (const child of multipartChildren(part.body, boundary)) collectParts(child, into);
    return;
  }
  const disposition = parseHeaderValue(header(part.headers, "content-disposition"));
  const filename = disposition.params.get("filename") ?? type.params.get("name");
  const content = decodeBytes(
    transferDecode(part.body, header(part.headers, "content-transfer-encoding")),
    type.params.get("charset") ?? "utf-8",
  );
  if (disposition.value === "attachment" || filename !== undefined) {
    into.attachments.push({ filename: filename ?? "", contentType: type.value, content });
  } else if (type.value === "text/html" && !into.html) {
    into.html = content;
  } else if (type.value === "text/plain" && !into.text) {
    into.text = content;
  }
}

/** The parts between `--boundary` lines, up to `--boundary--`. */
function multipartChildren(body: string, boundary: string): Part[] {
  const children: Part[] = [];
  let current: string[] | null = null;
  for (const line of body.split("\n")) {
    if (line.trimEnd() === `--${boundary}--`) {
      if (current) children.push(splitPart(current.join("\n")));
      return children;
    }
    if (line.trimEnd() === `--${boundary}`) {
      if (current) children.push(splitPart(current.join("\n")));
      current = [];
      continue;
    }
    current?.push(line);
  }
  throw new Error(`multipart body without its closing boundary ${boundary}`);
}

function transferDecode(body: string, encoding: string): Uint8Array {
  switch (encoding.trim().toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64");
    case "quoted-printable":
      return quotedPrintable(body);
    case "":
    case "7bit":
    case "8bit":
    case "binary":
      return Buffer.from(body, "latin1");
    default:
      throw new Error(`unknown Content-Transfer-Encoding: ${encoding}`);
  }
}

/** RFC 2045 §6.7: "=XX" is a byte, "=" at a line end is a soft break. */
function quotedPrintable(body: string): Uint8Array {
  const unfolded = body.replace(/[ \t]+$/gm, "").replace(/=\n/g, "");
  return Buffer.from(
    unfolded.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    ),
    "latin1",
  );
}

const percentBytes = (text: string) =>
  Buffer.from(
    text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    ),
    "latin1",
  );

const decodeBytes = (bytes: Uint8Array, charset: string) =>
  new TextDecoder(charset.toLowerCase(), { fatal: true }).decode(bytes);

/**
 * RFC 2047: `=?charset?B|Q?text?=` words; white space between two encoded
 * words is dropped (it only separated them for folding), elsewhere kept.
 * Header bytes outside encoded words are read as UTF-8 (SMTPUTF8 mails).
 */
export function decodeHeader(value: string): string {
  const plain = decodeBytes(Buffer.from(value, "latin1"), "utf-8");
  return plain
    .replace(/(\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, kind: string, text) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? Buffer.from(text, "base64")
          : Buffer.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-Fa-f]{2})/g, (_match: string, hex: string) =>
                  String.fromCharCode(Number.parseInt(hex, 16)),
                ),
              "latin1",
            );
      return decodeBytes(bytes, charset.replace(/\*.*$/, ""));
    });
}

/** The href values of an HTML document, with character references decoded. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map(
    (match) => decodeEntities(match[1] ?? match[2] ?? match[3] ?? ""),
  );
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X"
          ? Number.parseInt(name.slice(2), 16)
          : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
