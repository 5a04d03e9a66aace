import { describe, expect, it } from "vitest";
import { keyValueText, wrapCell } from "../../src/output/table-text.js";

// Issue 15 items 1 and 2: text for people that never cuts what they may copy.

describe("keyValueText", () => {
  it("prints key: value lines with aligned values, whole whatever their length", () => {
    const link = `https://app.example.test/org/simulation/sim-001?token=${"x".repeat(300)}`;
    expect(
      keyValueText([
        ["userId", "user-demo"],
        ["link", link],
      ]),
    ).toBe(`userId: user-demo\nlink:   ${link}\n`);
  });

  it("escapes control characters from the service", () => {
    expect(keyValueText([["name", "a\u001b[2Jb"]])).not.toContain("\u001b");
  });
});

describe("wrapCell", () => {
  it("wraps at spaces and keeps every word", () => {
    const message = "username must equal email exactly (got 'ana@example.com' and 'Ana@example.com')";
    const wrapped = wrapCell(message, 30);
    for (const line of wrapped.split("\n")) expect(line.length).toBeLessThanOrEqual(30);
    expect(wrapped.split("\n").join(" ")).toBe(message);
  });

  it("splits a word longer than the line rather than cutting it", () => {
    const id = "a".repeat(25);
    expect(wrapCell(id, 10)).toBe("aaaaaaaaaa\naaaaaaaaaa\naaaaa");
  });

  it("fills a line exactly, then starts the next at the word that does not fit", () => {
    expect(wrapCell("abc de fg", 6)).toBe("abc de\nfg");
    expect(wrapCell("ab cde", 5)).toBe("ab\ncde");
    expect(wrapCell("ab cd", 5)).toBe("ab cd");
  });

  it("splits a long word after a short line into full lines, with no empty line at the end", () => {
    expect(wrapCell("ab cdefghijkl", 5)).toBe("ab\ncdefg\nhijkl");
  });

  it("leaves the text alone when no width is known", () => {
    expect(wrapCell("abc def", 0)).toBe("abc def");
  });
});

describe("keyValueText of nothing", () => {
  it("is empty", () => {
    expect(keyValueText([])).toBe("");
  });
});
