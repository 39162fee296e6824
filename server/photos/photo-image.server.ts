import sharp from "sharp";
import { BadRequestError } from "../errors/domain-error";

/** Largest upload accepted (the body limit of the upload route allows a little more for the form). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** Widths written for srcset; a smaller original gets its own width instead of the larger ones. */
export const PHOTO_WIDTHS = [400, 800, 1200, 1600] as const;
/** Decompression bombs: a small file that decodes to a huge bitmap is refused before decoding. */
const MAX_INPUT_PIXELS = 50_000_000;

export class PhotoRejectedError extends BadRequestError {
  constructor(message: string, status = 400) {
    super("photo_rejected", message, status);
  }
}

export const TOO_LARGE_MESSAGE =
  "写真のファイルサイズは10MBまでです。小さくしてからアップロードしてください。";
const NOT_AN_IMAGE =
  "JPEG・PNG・WebP・HEIC形式の写真を選んでください（ファイルの中身が画像ではありません）。";
const UNREADABLE =
  "写真を読み取れませんでした。ファイルが壊れていないか確認するか、JPEGに変換してからアップロードしてください。";
const HEIC_UNREADABLE =
  "このHEIC写真は読み取れませんでした。JPEGに変換してからアップロードしてください。";

type Kind = "jpeg" | "png" | "webp" | "heif";

/**
 * What the bytes are, from their first bytes (never the file name or the
 * browser's type, which anyone can set): JPEG, PNG, WebP or an HEIF/HEIC box.
 */
export function sniffImageKind(bytes: Uint8Array): Kind | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "heif";
  return null;
}
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

export type PhotoVariantFile = { width: number; height: number; data: Buffer };

/**
 * Checks an upload and writes its WebP sizes. sharp writes no metadata
 * unless asked (keepMetadata), so EXIF (a phone's GPS position included)
 * never leaves this function; the EXIF orientation is applied to the
 * pixels first so the photo stays upright without it.
 */
export async function processPhoto(bytes: Uint8Array): Promise<PhotoVariantFile[]> {
  if (bytes.length > MAX_PHOTO_BYTES) throw new PhotoRejectedError(TOO_LARGE_MESSAGE, 413);
  const kind = sniffImageKind(bytes);
  if (!kind) throw new PhotoRejectedError(NOT_AN_IMAGE, 415);
  const input = () =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).autoOrient();
  let width: number;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    // The content must agree with its first bytes (a PNG header on something else is refused).
    if (metadata.format !== kind) throw new PhotoRejectedError(NOT_AN_IMAGE, 415);
    width = metadata.autoOrient?.width ?? metadata.width ?? 0;
    if (!width) throw new PhotoRejectedError(UNREADABLE, 422);
  } catch (error) {
    if (error instanceof PhotoRejectedError) throw error;
    throw new PhotoRejectedError(kind === "heif" ? HEIC_UNREADABLE : UNREADABLE, 422);
  }
  const widths = [...PHOTO_WIDTHS.filter((w) => w < width), Math.min(width, 1600)];
  try {
    const variants: PhotoVariantFile[] = [];
    for (const target of [...new Set(widths)]) {
      const { data, info } = await input()
        .resize({ width: target, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      variants.push({ width: info.width, height: info.height, data });
    }
    return variants;
  } catch {
    throw new PhotoRejectedError(kind === "heif" ? HEIC_UNREADABLE : UNREADABLE, 422);
  }
}
