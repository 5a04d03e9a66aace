import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// An export skips the redaction walk for a window whose text proves the API key absent
// (output/secret-scan.ts). The proof must never be wrong: the key written any way the JSON
// text can hold it is still redacted, wherever the reading's 64 KiB chunks cut it.

const RANGE = ["--from", "2025-01-01", "--to", "2025-01-03"];
const SYMS = "/v2/report/syms";
/** The window file is read back in chunks of this many bytes (engines/reports/cache.ts). */
const CHUNK = 64 * 1024;

let t: TestEnv;
let dir: { path: string; remove(): Promise<void> };
let key: string;
beforeAll(async () => {
  dir = await tempDir();
  t = await startTestEnv(ROOMY);
  key = t.env.SIMADMIN_API_KEY ?? "";
  expect(key.length).toBeGreaterThan(8);
});
afterAll(async () => {
  await t.close();
  await dir.remove();
});

const escapeAll = (text: string): string =>
  [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/** A report answer whose text holds `written` (the key in some form) as a record's value. */
function answerWith(written: string, at?: number): string {
  const head = '{"data":[{"name":"a"},{"pad":"';
  const middle = '","k":"Bearer ';
  // Padding that puts `written` at offset `at` of the text.
  const pad = at === undefined ? 10 : at - head.length - middle.length;
  return `${head}${"x".repeat(pad)}${middle}${written}"},{"name":"b"}]}`;
}

async function exportOf(body: string, format: "ndjson" | "csv"): Promise<string> {
  t.sandbox.faults.respondNext(SYMS, 1, { status: 200, body, headers: { "content-type": "application/json" } });
  const out = join(dir.path, `syms-${Date.now()}-${Math.random()}.${format}`);
  const r = await t.capture(["reports", "syms", ...RANGE, "-o", format, "--out", out]);
  expect(r.exitCode, r.stderr).toBe(0);
  return readFile(out, "utf8");
}

describe("the API key in report data, with the redaction fast path", () => {
  it.each([
    ["plain", () => key],
    ["JSON-escaped, every character (\\uXXXX)", () => escapeAll(key)],
    ["JSON-escaped, one character", () => `${key.slice(0, 3)}${escapeAll(key.slice(3, 4))}${key.slice(4)}`],
    ["URL-encoded", () => encodeURIComponent(key)],
  ])("is redacted when written %s", async (_name, written) => {
    const text = await exportOf(answerWith(written()), "ndjson");
    expect(text).not.toContain(key);
    expect(text).toContain("Bearer [REDACTED]");
  });

  it("is redacted when the 64 KiB chunks the window is read in cut it in two, wherever they cut it", async () => {
    for (const cut of [1, Math.floor(key.length / 2), key.length - 1]) {
      const text = await exportOf(answerWith(key, CHUNK - cut), "csv");
      expect(text, `cut after ${cut} characters`).not.toContain(key);
      expect(text).toContain("Bearer [REDACTED]");
    }
  });

  it("is redacted as a property name, and in ndjson when a chunk's end cuts it", async () => {
    const named = await exportOf(`{"data":[{"name":"a"},{"${key}":1}]}`, "ndjson");
    expect(named).not.toContain(key);
    expect(named).toContain('{"[REDACTED]":1}');
    const cut = await exportOf(answerWith(key, CHUNK - Math.floor(key.length / 2)), "ndjson");
    expect(cut).not.toContain(key);
    expect(cut).toContain("Bearer [REDACTED]");
  });

  it("leaves a window without the key as it is", async () => {
    const text = await exportOf(answerWith("nothing\\u00e9 here"), "ndjson");
    expect(text).toContain('"k":"Bearer nothingé here"');
    expect(text).not.toContain("[REDACTED]");
  });
});
