import { SITE_TIME_ZONE } from "../../common/format";
import { listAdmins, listAudit, listAuditedSalons } from "../audit/audit";
import type { Database } from "../db/client";
import { lineMonthUsage } from "../line/line-messages.server";
import { adminDashboard } from "./dashboard";

/** The audit filters of /admin as auditFilterSchema reads them (empty = all). */
export type AdminHomeFilter = { salon?: string; actor?: string };

/**
 * Everything /admin shows: the counts and latest bookings and sign-ups, the
 * newest 30 audit entries under the filter, and the choices of its two
 * filters. Counted in Japan's day and week wherever the server runs.
 */
export async function adminHome(
  db: Database,
  filter: AdminHomeFilter,
  now: Date,
  /** LINE_MONTHLY_QUOTA: this month's LINE use is shown against it (decision 0089). */
  lineQuota = 0,
) {
  const [dashboard, audit, admins, auditedSalons, lineUsage] = await Promise.all([
    adminDashboard(db, now, SITE_TIME_ZONE),
    listAudit(db, { salonId: filter.salon, actorUserId: filter.actor, limit: 30 }),
    listAdmins(db),
    listAuditedSalons(db),
    lineMonthUsage(db, now),
  ]);
  return {
    ...dashboard,
    audit,
    admins,
    auditedSalons,
    filter,
    line: { ...lineUsage, quota: lineQuota },
  };
}

export type AdminHomeData = Awaited<ReturnType<typeof adminHome>>;
