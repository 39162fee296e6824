import { parseArgs } from "node:util";
import { createAccountServices } from "../server/accounts/account-services";
import { createAdmin } from "../server/accounts/admin-create";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";

/** `npm run admin:create -- --email admin@example.jp [--password …]` */
const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" } },
});
if (!values.email) {
  console.error("usage: npm run admin:create -- --email admin@example.jp [--password <password>]");
  process.exit(1);
}
const config = loadConfig();
const handle = await openDatabase(config.DATABASE_URL);
try {
  await handle.migrate();
  const result = await createAdmin(handle.db, createAccountServices(handle.db, config), {
    email: values.email,
    password: values.password,
  });
  console.log(
    result.created
      ? `created administrator ${result.email}`
      : `promoted ${result.email} to administrator`,
  );
  if (result.generatedPassword) console.log(`password: ${result.generatedPassword}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
  process.exit();
}
