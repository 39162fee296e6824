import { describe, expect, it } from "vitest";
import {
  type DistanceOrigin,
  distanceLabel,
  distanceMeters,
  formatDistance,
  middleOf,
  originLabel,
} from "./search-map";

const shinjukuStation = { lat: 35.6896, lng: 139.7006 };
const shibuyaStation = { lat: 35.658, lng: 139.7016 };

describe("distanceMeters", () => {
  it("is zero from a point to itself and the same both ways", () => {
    expect(distanceMeters(shinjukuStation, shinjukuStation)).toBe(0);
    expect(distanceMeters(shinjukuStation, shibuyaStation)).toBeCloseTo(
      distanceMeters(shibuyaStation, shinjukuStation),
      6,
    );
  });

  it("measures 新宿駅 to 渋谷駅 at about 3.5 km, and one minute of latitude at about 1.85 km", () => {
    expect(distanceMeters(shinjukuStation, shibuyaStation)).toBeGreaterThan(3450);
    expect(distanceMeters(shinjukuStation, shibuyaStation)).toBeLessThan(3550);
    expect(distanceMeters({ lat: 35, lng: 139 }, { lat: 35 + 1 / 60, lng: 139 })).toBeCloseTo(
      1853,
      -1,
    );
  });
});

describe("formatDistance", () => {
  it.each([
    [0, "約10m"],
    [4, "約10m"],
    [347, "約350m"],
    [994, "約990m"],
    [996, "約1.0km"],
    [1234, "約1.2km"],
    [9940, "約9.9km"],
    [9960, "約10km"],
    [12_345, "約12km"],
    [1_234_567, "約1,235km"],
  ])("%d m reads %s", (meters, label) => {
    expect(formatDistance(meters)).toBe(label);
  });
});

describe("originLabel and distanceLabel", () => {
  it("name the visitor's position, a station, an area's centre or the results' middle", () => {
    const at = { lat: 35.6896, lng: 139.7006 };
    expect(originLabel({ kind: "position", ...at })).toBe("現在地");
    expect(originLabel({ kind: "station", name: "新宿", ...at })).toBe("新宿駅");
    // A station registered with its suffix is not given a second one.
    expect(originLabel({ kind: "station", name: "東京駅", ...at })).toBe("東京駅");
    expect(originLabel({ kind: "area", name: "渋谷・原宿", ...at })).toBe("渋谷・原宿の中心");
    expect(originLabel({ kind: "results", ...at })).toBe("検索結果の中心");
  });

  it("say the distance from the origin in Japanese", () => {
    const position: DistanceOrigin = { kind: "position", ...shinjukuStation };
    expect(distanceLabel(position, shibuyaStation)).toBe("現在地から約3.5km");
    const station: DistanceOrigin = { kind: "station", name: "新宿", ...shinjukuStation };
    // 0.003° of latitude: about 330 m south of the station.
    expect(distanceLabel(station, { lat: 35.6866, lng: 139.7006 })).toBe("新宿駅から約330m");
  });
});

describe("middleOf", () => {
  it("is the centre of the points' bounding box, or null without points", () => {
    expect(middleOf([])).toBeNull();
    expect(middleOf([shinjukuStation])).toEqual(shinjukuStation);
    expect(
      middleOf([
        { lat: 35.6, lng: 139.7 },
        { lat: 35.7, lng: 139.8 },
        { lat: 35.62, lng: 139.71 },
      ]),
    ).toEqual({ lat: expect.closeTo(35.65, 10), lng: expect.closeTo(139.75, 10) });
  });
});
