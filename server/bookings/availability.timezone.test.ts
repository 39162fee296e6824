import { describe, expect, it } from "vitest";
import { findAvailability, pickStaff } from "./availability";
import type {
  AvailabilityInput,
  BookingSettings,
  BusyInterval,
  DatedException,
  DayAvailability,
  LocalDate,
  LocalTime,
  StaffAvailability,
  WeeklyHours,
  WeeklySchedule,
} from "./availability-input";

// Run under TZ=UTC and TZ=Asia/Tokyo (vitest.config.ts): the engine must not
// depend on the process zone, only on input.timeZone.

const WEEK = [0, 1, 2, 3, 4, 5, 6] as const;

/** Weekly rows for the given weekdays (default every day). */
function hours(
  start: LocalTime,
  end: LocalTime,
  weekdays: readonly number[] = WEEK,
): WeeklyHours[] {
  return weekdays.map((weekday) => ({ weekday: weekday as WeeklyHours["weekday"], start, end }));
}

function schedule(
  start: LocalTime,
  end: LocalTime,
  options: { weekdays?: readonly number[]; validFrom?: LocalDate; validUntil?: LocalDate } = {},
): WeeklySchedule[] {
  return hours(start, end, options.weekdays).map((h) => ({
    ...h,
    validFrom: options.validFrom ?? null,
    validUntil: options.validUntil ?? null,
  }));
}

function stylist(
  id: string,
  options: { weekly?: WeeklySchedule[]; exceptions?: DatedException[] } = {},
): StaffAvailability {
  return {
    id,
    weekly: options.weekly ?? schedule("10:00", "19:00"),
    exceptions: options.exceptions ?? [],
  };
}

/** An instant given as Tokyo wall-clock time, written independently of the engine. */
function tokyo(date: LocalDate, time: LocalTime): Date {
  return new Date(`${date}T${time}:00+09:00`);
}

function busy(staffId: string, date: LocalDate, start: LocalTime, end: LocalTime): BusyInterval {
  return { staffId, start: tokyo(date, start), end: tokyo(date, end) };
}

type Scenario = Partial<
  Omit<AvailabilityInput, "settings" | "holidays" | "bookingsPerStaffDay">
> & {
  settings?: Partial<BookingSettings>;
  holidays?: LocalDate[];
  bookingsPerStaffDay?: Record<string, number>;
};

/**
 * A Tokyo salon open 10:00–19:00 every day with one stylist "A" working the
 * same hours; a 60-minute menu; default settings (step 15, lead 60, window
 * 60 days, no buffer, no limit, no cutoff, open on holidays); `now` frozen at
 * Friday 2026-11-20 09:00 in Tokyo; looking at Saturday 2026-11-21.
 */
function scenario(s: Scenario = {}): AvailabilityInput {
  return {
    now: s.now ?? tokyo("2026-11-20", "09:00"),
    timeZone: s.timeZone ?? "Asia/Tokyo",
    from: s.from ?? "2026-11-21",
    to: s.to ?? s.from ?? "2026-11-21",
    settings: {
      slotStepMinutes: 15,
      leadTimeMinutes: 60,
      bookingWindowDays: 60,
      bufferAfterMinutes: 0,
      dailyLimitPerStaff: null,
      sameDayCutoff: null,
      closedOnHolidays: false,
      ...s.settings,
    },
    salonHours: s.salonHours ?? hours("10:00", "19:00"),
    salonExceptions: s.salonExceptions ?? [],
    holidays: new Set(s.holidays ?? []),
    staff: s.staff ?? [stylist("A")],
    staffId: s.staffId ?? null,
    durationMinutes: s.durationMinutes ?? 60,
    busy: s.busy ?? [],
    bookingsPerStaffDay: new Map(Object.entries(s.bookingsPerStaffDay ?? {})),
  };
}

/** Every start from `first` to `last` (inclusive) `step` minutes apart, as "HH:MM". */
function grid(first: LocalTime, last: LocalTime, step = 15): LocalTime[] {
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  const out: LocalTime[] = [];
  for (let m = toMin(first); m <= toMin(last); m += step) {
    out.push(`${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);
  }
  return out;
}

function only(days: DayAvailability[]): DayAvailability {
  expect(days).toHaveLength(1);
  return days[0] as DayAvailability;
}

function times(input: AvailabilityInput): LocalTime[] {
  return only(findAvailability(input)).slots.map((s) => s.time);
}

describe("findAvailability: opening hours and schedules", () => {
  it("offers every 15 minutes from opening until the last start that ends by closing", () => {
    const day = only(findAvailability(scenario()));
    expect(day).toMatchObject({
      date: "2026-11-21",
      weekday: 6,
      holiday: false,
      closedReason: null,
    });
    expect(day.slots.map((s) => s.time)).toEqual(grid("10:00", "18:00"));
    expect(day.slots[0]).toEqual({
      start: new Date("2026-11-21T01:00:00.000Z"),
      time: "10:00",
      staffIds: ["A"],
    });
    expect(day.slots.at(-1)?.start.toISOString()).toBe("2026-11-21T09:00:00.000Z");
  });

  it("does not offer a menu that would run past closing time", () => {
    expect(times(scenario({ durationMinutes: 90 })).at(-1)).toBe("17:30");
    expect(times(scenario({ durationMinutes: 9 * 60 }))).toEqual(["10:00"]);
    expect(only(findAvailability(scenario({ durationMinutes: 9 * 60 + 15 }))).closedReason).toBe(
      "full",
    );
  });

  it("leaves out a stylist's break (two working intervals a day)", () => {
    const staff = [
      stylist("A", { weekly: [...schedule("10:00", "13:00"), ...schedule("14:00", "19:00")] }),
    ];
    expect(times(scenario({ staff }))).toEqual([
      ...grid("10:00", "12:00"),
      ...grid("14:00", "18:00"),
    ]);
  });

  it("keeps a stylist inside the salon's opening hours", () => {
    const staff = [stylist("A", { weekly: schedule("08:00", "21:00") })];
    expect(times(scenario({ staff }))).toEqual(grid("10:00", "18:00"));
  });

  it("aligns starts to the start of the working interval", () => {
    const staff = [stylist("A", { weekly: schedule("10:10", "19:00") })];
    expect(times(scenario({ staff })).slice(0, 3)).toEqual(["10:10", "10:25", "10:40"]);
    expect(times(scenario({ settings: { slotStepMinutes: 30 } }))).toEqual(
      grid("10:00", "18:00", 30),
    );
  });

  it("applies a stylist's day off and an extra working day", () => {
    const dayOff = stylist("A", {
      exceptions: [{ date: "2026-11-21", kind: "closed", intervals: [] }],
    });
    const off = only(findAvailability(scenario({ staff: [dayOff] })));
    expect(off).toMatchObject({ closedReason: "full", slots: [] });

    const weekdaysOnly = stylist("A", {
      weekly: schedule("10:00", "19:00", { weekdays: [1, 2, 3, 4, 5] }),
      exceptions: [
        { date: "2026-11-21", kind: "extra", intervals: [{ start: "12:00", end: "15:00" }] },
      ],
    });
    expect(times(scenario({ staff: [weekdaysOnly] }))).toEqual(grid("12:00", "14:00"));
    // The Sunday after: no weekly row and no exception.
    expect(
      only(findAvailability(scenario({ staff: [weekdaysOnly], from: "2026-11-22" }))).closedReason,
    ).toBe("full");
  });

  it("replaces a stylist's week with the hours of an exception, rows of the date adding up", () => {
    const staff = [
      stylist("A", {
        exceptions: [
          { date: "2026-11-21", kind: "hours", intervals: [{ start: "10:00", end: "11:00" }] },
          { date: "2026-11-21", kind: "hours", intervals: [{ start: "17:00", end: "19:00" }] },
        ],
      }),
    ];
    expect(times(scenario({ staff }))).toEqual(["10:00", ...grid("17:00", "18:00")]);
  });

  it("uses only the weekly rows valid on the date", () => {
    const staff = [
      stylist("A", {
        weekly: [
          ...schedule("10:00", "19:00", { weekdays: [6], validUntil: "2026-11-21" }),
          ...schedule("12:00", "16:00", { weekdays: [6], validFrom: "2026-11-28" }),
        ],
      }),
    ];
    const [first, , , , , , , last] = findAvailability(scenario({ staff, to: "2026-11-28" }));
    expect(first?.slots.map((s) => s.time)).toEqual(grid("10:00", "18:00"));
    expect(last?.date).toBe("2026-11-28");
    expect(last?.slots.map((s) => s.time)).toEqual(grid("12:00", "15:00"));
  });

  it("closes the salon on a closed exception and a weekday without hours", () => {
    const closed = only(
      findAvailability(
        scenario({ salonExceptions: [{ date: "2026-11-21", kind: "closed", intervals: [] }] }),
      ),
    );
    expect(closed).toMatchObject({ closedReason: "salon_closed", slots: [] });

    // Closed on Tuesdays (定休日).
    const tuesday = only(
      findAvailability(
        scenario({ salonHours: hours("10:00", "19:00", [0, 1, 3, 4, 5, 6]), from: "2026-11-24" }),
      ),
    );
    expect(tuesday).toMatchObject({ weekday: 2, closedReason: "salon_closed" });
  });

  it("uses the salon's different hours on an exception date", () => {
    const salonExceptions: DatedException[] = [
      { date: "2026-11-21", kind: "hours", intervals: [{ start: "12:00", end: "16:00" }] },
    ];
    expect(times(scenario({ salonExceptions }))).toEqual(grid("12:00", "15:00"));
  });
});

describe("findAvailability: holidays", () => {
  const monday = { from: "2026-11-23", holidays: ["2026-11-23"] };

  it("closes on a holiday when the salon says so", () => {
    const day = only(
      findAvailability(scenario({ ...monday, settings: { closedOnHolidays: true } })),
    );
    expect(day).toMatchObject({
      date: "2026-11-23",
      holiday: true,
      closedReason: "holiday",
      slots: [],
    });
  });

  it("stays open on a holiday otherwise, and marks the day", () => {
    const day = only(findAvailability(scenario(monday)));
    expect(day).toMatchObject({ holiday: true, closedReason: null });
    expect(day.slots).toHaveLength(33);
  });

  it("opens on a holiday with a salon hours exception even when closing on holidays", () => {
    const day = only(
      findAvailability(
        scenario({
          ...monday,
          settings: { closedOnHolidays: true },
          salonExceptions: [
            { date: "2026-11-23", kind: "extra", intervals: [{ start: "10:00", end: "12:00" }] },
          ],
        }),
      ),
    );
    expect(day.slots.map((s) => s.time)).toEqual(grid("10:00", "11:00"));
  });
});

describe("findAvailability: salon exceptions against the week and holidays", () => {
  it("opens a weekly closing day with an extra day, and says salon_closed for a closed holiday", () => {
    const tuesdayClosed = hours("10:00", "19:00", [0, 1, 3, 4, 5, 6]);
    const extra = scenario({
      from: "2026-11-24",
      salonHours: tuesdayClosed,
      salonExceptions: [
        { date: "2026-11-24", kind: "extra", intervals: [{ start: "13:00", end: "15:00" }] },
      ],
    });
    expect(times(extra)).toEqual(grid("13:00", "14:00"));

    const closedHoliday = scenario({
      from: "2026-11-23",
      holidays: ["2026-11-23"],
      settings: { closedOnHolidays: true },
      salonExceptions: [{ date: "2026-11-23", kind: "closed", intervals: [] }],
    });
    expect(only(findAvailability(closedHoliday)).closedReason).toBe("salon_closed");
  });

  it("lets a closed row win over an hours row of the same date", () => {
    const staff = [
      stylist("A", {
        exceptions: [
          { date: "2026-11-21", kind: "hours", intervals: [{ start: "10:00", end: "12:00" }] },
          { date: "2026-11-21", kind: "closed", intervals: [] },
        ],
      }),
    ];
    expect(only(findAvailability(scenario({ staff }))).closedReason).toBe("full");
  });
});

describe("findAvailability: clock, window and limits", () => {
  it("starts no earlier than now plus the lead time, on the grid", () => {
    // Friday 11:07 in Tokyo: 12:07 is the earliest start, 12:15 the first on the grid.
    const now = tokyo("2026-11-20", "11:07");
    expect(times(scenario({ now, from: "2026-11-20" }))[0]).toBe("12:15");
    expect(times(scenario({ now, from: "2026-11-20", settings: { leadTimeMinutes: 0 } }))[0]).toBe(
      "11:15",
    );
    // Exactly on the grid counts.
    expect(times(scenario({ now: tokyo("2026-11-20", "11:00"), from: "2026-11-20" }))[0]).toBe(
      "12:00",
    );
  });

  it("says full when the lead time leaves nothing today", () => {
    const day = only(
      findAvailability(scenario({ now: tokyo("2026-11-20", "18:30"), from: "2026-11-20" })),
    );
    expect(day.closedReason).toBe("full");
  });

  it("marks days before today past and days beyond the window outside", () => {
    const days = findAvailability(
      scenario({ from: "2026-11-19", to: "2026-11-24", settings: { bookingWindowDays: 3 } }),
    );
    expect(days.map((d) => [d.date, d.closedReason])).toEqual([
      ["2026-11-19", "past"],
      ["2026-11-20", null],
      ["2026-11-21", null],
      ["2026-11-22", null],
      ["2026-11-23", null],
      ["2026-11-24", "outside_window"],
    ]);
  });

  it("takes today from the salon's zone, not UTC", () => {
    // 2026-11-20 20:00 UTC is already Saturday 05:00 in Tokyo.
    const days = findAvailability(
      scenario({ now: new Date("2026-11-20T20:00:00Z"), from: "2026-11-20", to: "2026-11-21" }),
    );
    expect(days.map((d) => d.closedReason)).toEqual(["past", null]);
  });

  it("stops same-day bookings at the cutoff time", () => {
    const settings = { sameDayCutoff: "17:00", leadTimeMinutes: 0 };
    const before = findAvailability(
      scenario({
        now: tokyo("2026-11-20", "16:59"),
        from: "2026-11-20",
        to: "2026-11-21",
        settings,
      }),
    );
    expect(before[0]?.slots.map((s) => s.time)).toEqual(grid("17:00", "18:00"));
    const after = findAvailability(
      scenario({
        now: tokyo("2026-11-20", "17:00"),
        from: "2026-11-20",
        to: "2026-11-21",
        settings,
      }),
    );
    expect(after[0]).toMatchObject({ closedReason: "outside_window", slots: [] });
    expect(after[1]?.slots).toHaveLength(33);
  });

  it("hides a stylist who reached the daily limit", () => {
    const settings = { dailyLimitPerStaff: 2 };
    expect(
      only(findAvailability(scenario({ settings, bookingsPerStaffDay: { "A|2026-11-21": 2 } })))
        .closedReason,
    ).toBe("full");
    expect(times(scenario({ settings, bookingsPerStaffDay: { "A|2026-11-21": 1 } }))).toHaveLength(
      33,
    );
    // Another day's count does not matter.
    expect(times(scenario({ settings, bookingsPerStaffDay: { "A|2026-11-22": 5 } }))).toHaveLength(
      33,
    );
  });
});

describe("findAvailability: bookings, holds and buffers", () => {
  it("leaves out busy intervals and live holds, keeping the grid", () => {
    // A booking 13:00–14:00 and a hold 10:00–10:50.
    const input = scenario({
      busy: [busy("A", "2026-11-21", "13:00", "14:00"), busy("A", "2026-11-21", "10:00", "10:50")],
    });
    expect(times(input)).toEqual([...grid("11:00", "12:00"), ...grid("14:00", "18:00")]);
  });

  it("ignores other stylists' bookings", () => {
    expect(times(scenario({ busy: [busy("B", "2026-11-21", "10:00", "19:00")] }))).toHaveLength(33);
  });

  it("keeps the buffer after an existing booking and before a following one", () => {
    const input = scenario({
      settings: { bufferAfterMinutes: 15 },
      busy: [busy("A", "2026-11-21", "13:00", "14:00")],
    });
    // 11:45 + 60 min + 15 min buffer = 13:00; 14:00 + 15 min buffer = 14:15.
    expect(times(input)).toEqual([...grid("10:00", "11:45"), ...grid("14:15", "18:00")]);
  });

  it("keeps both buffers around a booking: [start - before, end + after) of each booking is its own (decision 0048)", () => {
    const input = scenario({
      settings: { bufferBeforeMinutes: 30, bufferAfterMinutes: 15 },
      busy: [busy("A", "2026-11-21", "13:00", "14:00")],
    });
    // Before: 11:15 + 60 min + 15 min after = 12:30, the booking's 30 min before.
    // After: 14:00 + 15 min after + the new booking's 30 min before = 14:45.
    expect(times(input)).toEqual([...grid("10:00", "11:15"), ...grid("14:45", "18:00")]);
  });

  it("keeps the buffer before off a block, which has no buffers of its own", () => {
    const input = scenario({
      settings: { bufferBeforeMinutes: 30 },
      busy: [{ ...busy("A", "2026-11-21", "13:00", "14:00"), block: true }],
    });
    // A start right after the break would prepare during it; before it, the service ends by 13:00.
    expect(times(input)).toEqual([...grid("10:00", "12:00"), ...grid("14:30", "18:00")]);
  });

  it("lets the buffer of the last booking run past closing time", () => {
    expect(times(scenario({ settings: { bufferAfterMinutes: 30 } })).at(-1)).toBe("18:00");
  });
});

describe("findAvailability: 指名なし and a chosen stylist", () => {
  const staff = [stylist("A"), stylist("B", { weekly: schedule("13:00", "19:00") })];
  const busyA = [busy("A", "2026-11-21", "14:00", "16:00")];

  it("merges the stylists' starts, listing who is free at each", () => {
    const slots = only(findAvailability(scenario({ staff, busy: busyA }))).slots;
    const byTime = new Map(slots.map((s) => [s.time, s.staffIds]));
    expect(byTime.get("10:00")).toEqual(["A"]);
    expect(byTime.get("13:00")).toEqual(["A", "B"]);
    expect(byTime.get("13:15")).toEqual(["B"]);
    expect(byTime.get("14:00")).toEqual(["B"]);
    expect(byTime.get("16:00")).toEqual(["A", "B"]);
    expect(slots.map((s) => s.time)).toEqual(grid("10:00", "18:00"));
    expect(slots.map((s) => s.start.getTime())).toEqual(
      [...slots].map((s) => s.start.getTime()).sort((a, b) => a - b),
    );
  });

  it("keeps the order of input.staff in staffIds", () => {
    const slots = only(findAvailability(scenario({ staff: [...staff].reverse() }))).slots;
    expect(slots.find((s) => s.time === "13:00")?.staffIds).toEqual(["B", "A"]);
  });

  it("looks only at the chosen stylist", () => {
    const slots = only(findAvailability(scenario({ staff, busy: busyA, staffId: "B" }))).slots;
    expect(slots.map((s) => s.time)).toEqual(grid("13:00", "18:00"));
    expect(slots.every((s) => s.staffIds.length === 1 && s.staffIds[0] === "B")).toBe(true);
  });

  it("gives nothing for a stylist who is not among the candidates", () => {
    expect(only(findAvailability(scenario({ staff, staffId: "Z" }))).closedReason).toBe("full");
  });
});

describe("findAvailability: zones", () => {
  it("reads hours in the salon's zone (UTC)", () => {
    const day = only(
      findAvailability(scenario({ timeZone: "UTC", now: new Date("2026-11-20T00:00:00Z") })),
    );
    expect(day.slots[0]?.start.toISOString()).toBe("2026-11-21T10:00:00.000Z");
    expect(day.slots[0]?.time).toBe("10:00");
  });

  it("counts real hours on the day New York's clocks go back", () => {
    const day = only(
      findAvailability(
        scenario({
          timeZone: "America/New_York",
          now: new Date("2026-10-30T12:00:00Z"),
          from: "2026-11-01",
          salonHours: hours("00:00", "04:00"),
          staff: [stylist("A", { weekly: schedule("00:00", "04:00") })],
          settings: { slotStepMinutes: 60 },
        }),
      ),
    );
    // 00:00 EDT … 04:00 EST is five hours; 01:00 happens twice.
    expect(day.slots.map((s) => [s.time, s.start.toISOString()])).toEqual([
      ["00:00", "2026-11-01T04:00:00.000Z"],
      ["01:00", "2026-11-01T05:00:00.000Z"],
      ["01:00", "2026-11-01T06:00:00.000Z"],
      ["02:00", "2026-11-01T07:00:00.000Z"],
      ["03:00", "2026-11-01T08:00:00.000Z"],
    ]);
  });

  it("follows summer time in the offered instants", () => {
    const at = (date: LocalDate) =>
      only(
        findAvailability(
          scenario({
            timeZone: "America/New_York",
            now: new Date("2026-06-01T00:00:00Z"),
            from: date,
            settings: { bookingWindowDays: 365 },
          }),
        ),
      ).slots[0]?.start.toISOString();
    expect(at("2026-07-01")).toBe("2026-07-01T14:00:00.000Z");
    expect(at("2026-12-01")).toBe("2026-12-01T15:00:00.000Z");
  });
});

describe("findAvailability: input checks", () => {
  it("refuses a step or duration that is not positive", () => {
    expect(() => findAvailability(scenario({ settings: { slotStepMinutes: 0 } }))).toThrow(
      RangeError,
    );
    expect(() => findAvailability(scenario({ durationMinutes: 0 }))).toThrow(RangeError);
  });

  it("returns one entry per date, none when from is after to", () => {
    expect(findAvailability(scenario({ from: "2026-11-21", to: "2026-12-04" }))).toHaveLength(14);
    expect(findAvailability(scenario({ from: "2026-11-22", to: "2026-11-21" }))).toEqual([]);
  });
});

describe("pickStaff", () => {
  const counts = new Map([
    ["A|2026-11-21", 3],
    ["B|2026-11-21", 1],
    ["C|2026-11-21", 1],
    ["A|2026-11-22", 0],
  ]);

  it("picks the stylist with the fewest bookings that day", () => {
    expect(pickStaff(["A", "B"], counts, "2026-11-21")).toBe("B");
  });

  it("breaks ties by the order given", () => {
    expect(pickStaff(["C", "B", "A"], counts, "2026-11-21")).toBe("C");
    expect(pickStaff(["A", "D"], counts, "2026-11-22")).toBe("A");
  });

  it("gives null without candidates", () => {
    expect(pickStaff([], counts, "2026-11-21")).toBeNull();
  });
});
