import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import sharp from "sharp";

/**
 * A local S3-compatible server (s3rver, files in a temporary folder) with
 * one bucket, so the S3 photo store is tested over real HTTP and SigV4.
 * s3rver's fixed key pair is S3RVER / S3RVER.
 */
export async function startS3Server(bucket = "salon-photos") {
  const directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
  };
  return {
    env,
    settings: {
      bucket,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export async function temporaryUploadsDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "uploads-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Where a phone would say it was: Tokyo Station, in EXIF's GPS block. */
const TOKYO_GPS = {
  GPSLatitudeRef: "N",
  GPSLatitude: "35/1 40/1 52/1",
  GPSLongitudeRef: "E",
  GPSLongitude: "139/1 46/1 0/1",
};

/** A JPEG as a phone writes it: camera make and a GPS position in EXIF (sharp's IFD3 is GPS). */
export function jpegWithGps(width = 2000, height = 1500) {
  return sharp({
    create: { width, height, channels: 3, background: { r: 180, g: 120, b: 90 } },
  })
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Make: "TestPhone", Model: "Camera 1" }, IFD3: TOKYO_GPS })
    .toBuffer();
}

export function pngImage(width = 600, height = 400) {
  return sharp({ create: { width, height, channels: 4, background: "#88aacc" } })
    .png()
    .toBuffer();
}

/** The bytes of EXIF's GPS IFD pointer tag (0x8825), in either byte order. */
export function hasGpsTag(exif: Buffer | undefined) {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25]));
}
