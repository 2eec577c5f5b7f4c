/**
 * A file of no known format is read by the columns the importer picks; its
 * address column is offered first when its header calls it so, whatever the
 * case, spaces, hyphens or underscores.
 */
import { describe, expect, it } from "vitest";
import { layoutOf } from "./import-formats.ts";

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
