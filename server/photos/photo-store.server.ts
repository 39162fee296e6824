import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import type { Config } from "../config";

/**
 * Where uploaded photos live, behind the four calls the app needs. Keys are
 * content-hashed ("salons/<salon>/<photo>-<hash>-<width>.webp"), so a key's
 * bytes never change and pages may cache them for a year. Both stores are
 * served by the app at /uploads/<key> (server/http/app.ts), so pages, the
 * CSP and the tests see one URL scheme whichever store is configured.
 */
export type PhotoStore = {
  kind: "local" | "s3";
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes, or null when there is no such key. */
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | null>;
  /** Removes the keys; missing ones are not an error. */
  delete(keys: readonly string[]): Promise<void>;
};

/** The URL path a stored key is served at. */
export const UPLOADS_PREFIX = "/uploads/";
export const uploadUrl = (key: string) => `${UPLOADS_PREFIX}${key}`;

/** A key from a URL path we wrote; null for anything else (never a path outside the store). */
export function uploadKey(urlPath: string): string | null {
  if (!urlPath.startsWith(UPLOADS_PREFIX)) return null;
  const key = urlPath.slice(UPLOADS_PREFIX.length);
  return isSafeKey(key) ? key : null;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\.[a-z0-9]+$/;
export const isSafeKey = (key: string) => key.length <= 300 && SAFE_KEY.test(key);

function assertKey(key: string) {
  if (!isSafeKey(key)) throw new Error(`bad upload key: ${key}`);
}

const TYPES: Record<string, string> = { webp: "image/webp", jpg: "image/jpeg", png: "image/png" };
const typeOf = (key: string) => TYPES[key.split(".").pop() ?? ""] ?? "application/octet-stream";

/** Files under a folder (./data/uploads by default). */
export function createLocalPhotoStore(dir: string): PhotoStore {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    assertKey(key);
    return path.join(root, ...key.split("/"));
  };
  return {
    kind: "local",
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed: a reader never sees half a file.
      const temporary = `${file}.${process.pid}.${Date.now()}.part`;
      await writeFile(temporary, body);
      await rename(temporary, file);
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      try {
        return { body: await readFile(fileOf(key)), contentType: typeOf(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
    },
  };
}

export type S3Settings = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

/**
 * An S3-compatible bucket over plain signed HTTP (aws4fetch: SigV4 on
 * fetch, no SDK), path-style so any S3-compatible server works.
 */
export function createS3PhotoStore(settings: S3Settings): PhotoStore {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: "s3",
    retries: 2,
  });
  const base = `${settings.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(settings.bucket)}`;
  const urlOf = (key: string) => {
    assertKey(key);
    return `${base}/${key}`;
  };
  const fail = async (what: string, response: Response) => {
    const text = await response.text().catch(() => "");
    return new Error(`S3 ${what} failed: ${response.status} ${text.slice(0, 200)}`);
  };
  return {
    kind: "s3",
    async put(key, body, contentType) {
      const response = await client.fetch(urlOf(key), {
        method: "PUT",
        body: body as BodyInit,
        headers: { "content-type": contentType },
      });
      if (!response.ok) throw await fail(`PUT ${key}`, response);
      await response.body?.cancel();
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      const response = await client.fetch(urlOf(key), { method: "GET" });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) throw await fail(`GET ${key}`, response);
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get("content-type") ?? typeOf(key),
      };
    },
    async delete(keys) {
      await Promise.all(
        keys.map(async (key) => {
          const response = await client.fetch(urlOf(key), { method: "DELETE" });
          if (!response.ok && response.status !== 404) throw await fail(`DELETE ${key}`, response);
          await response.body?.cancel();
        }),
      );
    },
  };
}

/** The bucket when S3_* is set (config checks they come together), the folder otherwise. */
export function createPhotoStore(config: Config): PhotoStore {
  if (
    config.S3_BUCKET &&
    config.S3_ENDPOINT &&
    config.S3_ACCESS_KEY_ID &&
    config.S3_SECRET_ACCESS_KEY
  ) {
    return createS3PhotoStore({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return createLocalPhotoStore(config.UPLOADS_DIR);
}
