import S3rver from "s3rver";

/**
 * The cluster's photo store (scripts/cluster.sh): s3rver, the S3-compatible
 * server the tests use, with the bucket the app servers write to, files in
 * the given folder. Its fixed key pair is S3RVER / S3RVER. Stands in for
 * S3, R2 or MinIO in a real installation.
 */
const [port = "3720", directory = ".cluster/s3"] = process.argv.slice(2);
const server = new S3rver({
  port: Number(port),
  address: "127.0.0.1",
  silent: true,
  directory,
  configureBuckets: [{ name: "salon-photos" }],
});
await server.run();
console.log(`s3rver on http://127.0.0.1:${port}`);
const stop = () => server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
