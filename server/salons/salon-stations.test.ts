import { describe, expect, it } from "vitest";
import { boundingBox, distanceMetres, nearestStations, walkingMinutes } from "./salon-stations";

// 0.01° of latitude along a meridian: 6,371,000 m × 0.01 × π / 180 = 1,111.95 m.
const salon = { latitude: 35.0, longitude: 139.0 };
const north = (degrees: number, name: string) => ({
  name,
  latitude: 35.0 + degrees,
  longitude: 139.0,
});

describe("distanceMetres", () => {
  it("is 1,111.95 m for 0.01° of latitude", () => {
    expect(distanceMetres(salon, north(0.01, "北"))).toBeCloseTo(1111.95, 1);
  });

  it("shrinks a degree of longitude by the cosine of the latitude", () => {
    // cos 60° = 0.5: half of 1,111.95 m.
    const d = distanceMetres({ latitude: 60, longitude: 139 }, { latitude: 60, longitude: 139.01 });
    expect(d).toBeCloseTo(555.97, 0);
  });
});

describe("walkingMinutes", () => {
  it("walks the straight line × 1.3 at 80 m a minute, a part of a minute counted whole", () => {
    // 1,111.95 × 1.3 = 1,445.5 m; ÷ 80 = 18.07 → 19分.
    expect(walkingMinutes(1111.95)).toBe(19);
    // 400 × 1.3 = 520 m; ÷ 80 = 6.5 → 7分.
    expect(walkingMinutes(400)).toBe(7);
    // Exactly 80 m of street (61.54 m straight) is 1分, never 0.
    expect(walkingMinutes(80 / 1.3)).toBe(1);
    expect(walkingMinutes(0)).toBe(1);
  });
});

describe("nearestStations", () => {
  it("lists up to three within 2 km, nearest first, with metres and minutes", () => {
    const result = nearestStations(salon, [
      north(0.01, "一駅"), // 1,112 m
      north(0.003, "近い駅"), // 333.6 m
      north(0.019, "遠い駅"), // 2,112.7 m: too far
      north(-0.005, "南駅"), // 556 m
      north(0.015, "四番目"), // 1,668 m: the fourth
    ]);
    expect(result.map((s) => [s.name, s.metres, s.walkMinutes])).toEqual([
      ["近い駅", 330, 6], // 333.6 × 1.3 = 433.6 m → 5.42 → 6分
      ["南駅", 560, 10], // 555.97 × 1.3 = 722.8 m → 9.03 → 10分
      ["一駅", 1110, 19],
    ]);
  });

  it("gives none when no station is near", () => {
    expect(nearestStations(salon, [north(0.05, "遠い")])).toEqual([]);
  });
});

describe("boundingBox", () => {
  it("holds a point at the distance in every direction", () => {
    const box = boundingBox(salon, 2000);
    for (const [dLat, dLng] of [
      [0.0179, 0],
      [-0.0179, 0],
      [0, 0.0219],
      [0, -0.0219],
    ] as const) {
      const lat = salon.latitude + dLat;
      const lng = salon.longitude + dLng;
      expect(distanceMetres(salon, { latitude: lat, longitude: lng })).toBeLessThan(2000);
      expect(lat).toBeGreaterThanOrEqual(box.minLatitude);
      expect(lat).toBeLessThanOrEqual(box.maxLatitude);
      expect(lng).toBeGreaterThanOrEqual(box.minLongitude);
      expect(lng).toBeLessThanOrEqual(box.maxLongitude);
    }
  });
});
