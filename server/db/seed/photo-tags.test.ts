import { describe, expect, it } from "vitest";
import { tagSeedPhotos } from "./photo-tags";
import { Random } from "./random";

describe("tagSeedPhotos", () => {
  const stylists = [{ id: "s1" }, { id: "s2" }, { id: "senior" }];
  const menus = [{ id: "cut" }, { id: "straight" }];
  // Only the senior stylist does the straightening.
  const menuStaff = [{ menuId: "straight", staffId: "senior" }];

  it("tags some photos, each with a stylist who does the tagged menu", () => {
    let tagged = 0;
    let untagged = 0;
    for (let salon = 0; salon < 50; salon++) {
      const photos: { staffId?: string | null; menuId?: string | null }[] = [{}, {}, {}];
      tagSeedPhotos(photos, stylists, menus, menuStaff, new Random(`photo-tag:${salon}`));
      for (const photo of photos) {
        if (!photo.menuId) {
          expect(photo.staffId).toBeUndefined();
          untagged++;
          continue;
        }
        tagged++;
        expect(stylists.map((s) => s.id)).toContain(photo.staffId);
        if (photo.menuId === "straight") expect(photo.staffId).toBe("senior");
      }
    }
    expect(tagged).toBeGreaterThan(0);
    expect(untagged).toBeGreaterThan(0);
  });

  it("leaves the photos alone when the salon has no stylists or menus", () => {
    const photos = [{}, {}];
    tagSeedPhotos(photos, [], menus, [], new Random("x"));
    tagSeedPhotos(photos, stylists, [], [], new Random("x"));
    expect(photos).toEqual([{}, {}]);
  });
});
