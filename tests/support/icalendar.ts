import ICAL from "ical.js";

/**
 * A calendar file the site sends, read by ical.js (an implementation
 * independent of the generator that wrote it), with the RFC 5545 rules a
 * parser forgives but calendar programs may not: VERSION 2.0 and a PRODID,
 * and in each VEVENT a UID and a DTSTAMP in UTC (a trailing Z; our file once
 * wrote it as a floating local time), and a VTIMEZONE for every TZID its
 * start and end name. Throws on any of them, so every test reading a file
 * through here checks them.
 */
export function readCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const problems: string[] = [];
  if (calendar.name !== "vcalendar") problems.push(`not a VCALENDAR: ${calendar.name}`);
  if (calendar.getFirstPropertyValue("version") !== "2.0") problems.push("VERSION is not 2.0");
  if (!calendar.getFirstPropertyValue("prodid")) problems.push("no PRODID");
  const zones = new Set(
    calendar.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid")),
  );
  const events = calendar.getAllSubcomponents("vevent");
  if (events.length === 0) problems.push("no VEVENT");
  for (const event of events) {
    if (!event.getFirstPropertyValue("uid")) problems.push("a VEVENT without UID");
    const stamp = event.getFirstPropertyValue("dtstamp");
    if (!(stamp instanceof ICAL.Time) || stamp.zone !== ICAL.Timezone.utcTimezone) {
      problems.push(`DTSTAMP is not in UTC: ${String(stamp)}`);
    }
    for (const name of ["dtstart", "dtend"]) {
      const tzid = event.getFirstProperty(name)?.getParameter("tzid");
      if (typeof tzid === "string" && !zones.has(tzid)) {
        problems.push(`${name.toUpperCase()} names ${tzid} without its VTIMEZONE`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`invalid iCalendar file: ${problems.join("; ")}`);
  return calendar;
}

/** The file's first VEVENT (readCalendar has checked there is one). */
export function firstEvent(calendar: ICAL.Component) {
  const event = calendar.getFirstSubcomponent("vevent");
  if (!event) throw new Error("no VEVENT");
  return event;
}
