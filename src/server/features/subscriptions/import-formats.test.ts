/**
 * A file of no known format is read by the columns the importer picks; its
 * address column is offered first when its header calls it so, whatever the
 * case, spaces, hyphens or underscores. A row's person: names, tags as each
 * export writes them, and fields, within their limits.
 */
import { describe, expect, it } from "vitest";
import { PERSON_LIMITS } from "../../../shared/admin/subscribers.ts";
import { layoutOf, personOf, splitTags } from "./import-formats.ts";

const guessed = (header: string[]) => layoutOf(header, {}).emailColumn;

describe("the address column of a file of no known format", () => {
  it.each([
    ["email"],
    ["Email"],
    ["EMAIL"],
    ["E-mail"],
    ["Email Address"],
    ["email_address"],
    ["e-mail address"],
    [" Email "],
  ])("is %j when a column is called so", (name) => {
    expect(guessed(["Name", name, "Joined"])).toBe(name);
  });

  it("is left for the importer to pick when no column is called so", () => {
    expect(guessed(["Name", "Work e-mail address", "Joined"])).toBeNull();
    expect(guessed(["Name", "emails sent"])).toBeNull();
  });

  it("is the one the importer picked, over a guess", () => {
    expect(layoutOf(["email", "Other"], { emailColumn: "Other" }).emailColumn).toBe("Other");
  });
});

describe("the person a row gives", () => {
  it("reads tags as Mailchimp quotes them and as Ghost lists them, each once", () => {
    expect(splitTags(`"Client","2024 forum, Madrid"`)).toEqual(["Client", "2024 forum, Madrid"]);
    expect(splitTags("Newsletter,  Events , newsletter,")).toEqual(["Newsletter", "Events"]);
    expect(splitTags("")).toEqual([]);
    expect(splitTags(Array.from({ length: 30 }, (_, n) => `t${n}`).join(","))).toHaveLength(
      PERSON_LIMITS.tags,
    );
  });

  it("splits a whole name at its first space, and cuts what is past the limits", () => {
    const header = ["email", "Full name", "Note"];
    const layout = layoutOf(header, {});
    const long = "y".repeat(PERSON_LIMITS.fieldValue + 10);
    expect(personOf(layout, header, ["a@b.example", "  Jan  van der Berg ", long])).toEqual({
      firstName: "Jan",
      lastName: "van der Berg",
      tags: [],
      fields: { Note: "y".repeat(PERSON_LIMITS.fieldValue) },
    });
    expect(personOf(layout, header, ["a@b.example", "Cher", ""])).toEqual({
      firstName: "Cher",
      lastName: null,
      tags: [],
      fields: {},
    });
  });

  it("keeps at most the fields a subscriber holds, and says why the rest are left out", () => {
    const header = [
      "email",
      ...Array.from({ length: PERSON_LIMITS.fields + 2 }, (_, n) => `c${n}`),
    ];
    const { roles, skipped } = layoutOf(header, {});
    expect(roles.filter((role) => role === "field")).toHaveLength(PERSON_LIMITS.fields);
    expect(Object.keys(skipped)).toEqual([
      `c${PERSON_LIMITS.fields}`,
      `c${PERSON_LIMITS.fields + 1}`,
    ]);
  });
});
