import { describe, expect, it } from "vitest";
import { salonGenres } from "../../../common/genres";
import { areaSeeds } from "./data/areas";
import { personalNotes, staffCatalogues } from "./data/staff";
import { coveringPlacement, staffProfile } from "./generate";
import { Random } from "./random";

describe("coveringPlacement", () => {
  it("gives every area every genre within the first areas × genres salons", () => {
    const seen = new Set<string>();
    for (let index = 1; index <= areaSeeds.length * salonGenres.length; index++) {
      const placement = coveringPlacement(index, areaSeeds);
      expect(placement).not.toBeNull();
      seen.add(`${placement?.area.slug}:${placement?.genre}`);
    }
    expect(seen.size).toBe(areaSeeds.length * salonGenres.length);
    expect(coveringPlacement(areaSeeds.length * salonGenres.length + 1, areaSeeds)).toBeNull();
  });
});

describe("staffProfile", () => {
  const femaleOnly = personalNotes
    .filter((n) => typeof n !== "string" && n.female)
    .map((n) => (n as { text: string }).text);
  const maleOnly = personalNotes
    .filter((n) => typeof n !== "string" && !n.female)
    .map((n) => (n as { text: string }).text);

  it("never contradicts the staff member: gender, training and years", () => {
    for (const genre of salonGenres) {
      const catalogue = staffCatalogues[genre];
      for (const role of [...catalogue.leads, ...catalogue.members]) {
        for (const female of [true, false]) {
          for (let seed = 0; seed < 60; seed++) {
            const rng = new Random(`${genre}:${role.name}:${female}:${seed}`);
            const years = role.years[0];
            const profile = staffProfile(rng, catalogue, role, {
              female,
              yearsOfExperience: years,
            });
            for (const note of female ? maleOnly : femaleOnly) expect(profile).not.toContain(note);
            if (role.trainee) {
              expect(
                catalogue.traineeSkills?.some((skill) => profile.startsWith(skill)),
                profile,
              ).toBe(true);
            }
            for (const skill of catalogue.skills) {
              if (typeof skill !== "string" && skill.minYears > years)
                expect(profile).not.toContain(skill.text);
            }
          }
        }
      }
    }
  });

  it("still gives mothers their note", () => {
    const catalogue = staffCatalogues.nail;
    const role = catalogue.leads[0];
    if (!role) throw new Error("no lead role");
    const profiles = Array.from({ length: 200 }, (_, seed) =>
      staffProfile(new Random(`m:${seed}`), catalogue, role, {
        female: true,
        yearsOfExperience: 15,
      }),
    );
    expect(profiles.some((profile) => femaleOnly.some((note) => profile.includes(note)))).toBe(
      true,
    );
  });
});
