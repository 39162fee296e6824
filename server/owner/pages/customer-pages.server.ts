import type { Database } from "../../db/client";
import { ownerPageSalon, type SalonAccess } from "../../salon-access/salon-access.server";
import { customerListQuerySchema } from "../customers.schema";
import { customerDetail, listCustomers } from "../customers.server";

/**
 * What the customers pages (/owner/salons/{id}/customers[/{customerId}])
 * need, assembled once per request: the salon (the frame is the layout
 * route's) and the domain's answer.
 */

export async function customerListPage(db: Database, access: SalonAccess, url: URL, now: Date) {
  const query = customerListQuerySchema.parse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const list = await listCustomers(db, access.salon.id, query, now);
  return { salon: ownerPageSalon(access), timeZone: access.salon.timeZone, list };
}

const doneIntents = ["notes", "merge", "unmerge"] as const;

export async function customerDetailPage(
  db: Database,
  access: SalonAccess,
  customerId: string,
  url: URL,
  now: Date,
) {
  const detail = await customerDetail(db, access.salon, customerId, now);
  const done = url.searchParams.get("done");
  return {
    salon: ownerPageSalon(access),
    timeZone: access.salon.timeZone,
    detail,
    done: doneIntents.find((intent) => intent === done) ?? null,
  };
}
