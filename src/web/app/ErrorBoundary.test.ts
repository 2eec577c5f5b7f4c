import { describe, expect, it } from "vitest";
import { errorText } from "./ErrorBoundary.tsx";

describe("the error screen's text", () => {
  it("keeps the error's words and drops the addresses it names", () => {
    expect(
      errorText(
        "Failed to fetch dynamically imported module: https://www.firm.example/assets/wedo-1a2B3c.js",
      ),
    ).toBe("Failed to fetch dynamically imported module");
    expect(errorText("Unable to preload CSS for /assets/weare-9Zx.css")).toBe(
      "Unable to preload CSS for",
    );
    expect(errorText("Cannot read properties of null (reading 'name')")).toBe(
      "Cannot read properties of null (reading 'name')",
    );
  });

  it("shows the first line only, never a stack", () => {
    expect(errorText("Boom\n    at render (https://www.firm.example/assets/a.js:1:2)")).toBe(
      "Boom",
    );
  });
});
