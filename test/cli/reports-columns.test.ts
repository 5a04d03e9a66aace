import { columnTexts, squeeze } from "../helpers/drawn-table.js";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flattenRecord } from "../../src/domain/records.js";
import { generateReport } from "../../src/sandbox/reports.js";
import { FAST, MATRIX_DIALECTS, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// issue 21 items 1 and 2 against every dialect the sandbox speaks: a terminal table chooses
// its columns from the records (a date first, within 80 columns, one hint line that works)
// and --fields takes the service's own names and refuses others after at most one request,
// naming the columns sent. Expected names come from the dialect's own records.

const RANGE = ["--from", "2025-02-01", "--to", "2025-02-02"];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
// eslint-disable-next-line no-control-regex -- the table's own colour codes are stripped
const visible = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, "");
const headerOf = (table: string): string[] =>
  (visible(table).split("\n")[1] ?? "")
    .split("│")
    .map((c) => c.trim())
    .filter(Boolean);

describe.each(MATRIX_DIALECTS)("report columns against the %s dialect", (dialect) => {
  let t: TestEnv;
  beforeAll(async () => {
    t = await startTestEnv({ rateLimits: { reports: { limit: 10_000, windowMs: 1000 } }, dialect });
  });
  afterAll(async () => {
    await t.close();
  });
  const reportRequests = (): number => t.sandbox.requests.filter((r) => r.path.includes("/report/")).length;
  const columnsOf = (kind: string): string[] => [
    ...new Set(
      generateReport(kind as "users", "2025-02-01", "2025-02-02", 2, 3, t.sandbox.dialect).flatMap((r) =>
        Object.keys(flattenRecord(r)),
      ),
    ),
  ];

  it.each(["users", "user-results"])(
    "%s at 80 columns: a date first, lines within 80, a hint whose --fields works",
    async (kind) => {
      const r = await t.capture(["reports", kind, ...RANGE], { stdoutIsTTY: true, columns: 80 });
      expect(r.exitCode, r.stderr).toBe(0);
      for (const line of visible(r.stdout).trimEnd().split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80);
      const header = headerOf(r.stdout);
      expect(header.length).toBeGreaterThanOrEqual(3);
      const firstCell = (visible(r.stdout).split("\n")[3] ?? "").split("│")[1]?.trim() ?? "";
      expect(firstCell).toMatch(ISO_DATE);
      const hint = r.stderr.split("\n").find((line) => line.includes("columns shown")) ?? "";
      expect(hint).toContain(`of ${columnsOf(kind).length} columns shown to fit 80 columns`);
      const suggested = /--fields (\S+) /.exec(hint)?.[1] ?? "";
      const again = await t.capture(["reports", kind, ...RANGE, "--fields", suggested], { stdoutIsTTY: true, columns: 80 });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(headerOf(again.stdout)).toEqual(suggested.split(","));
    },
  );

  // QA: `reports users --last 7d` at 80 columns suggested a --fields whose table was 91 wide.
  it.each(["users", "user-results"])("%s over 7 days at 80 columns: the hint's own command prints within 80", async (kind) => {
    const week = ["--from", "2025-02-01", "--to", "2025-02-07"];
    const r = await t.capture(["reports", kind, ...week], { stdoutIsTTY: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    const hint = r.stderr.split("\n").find((line) => line.includes("columns shown")) ?? "";
    const suggested = /--fields (\S+) /.exec(hint)?.[1];
    if (suggested === undefined) {
      // No --fields fits: the hint must offer the formats that keep every column instead.
      expect(hint).toContain("-o csv / -o json");
      return;
    }
    const hidden = hint.slice(hint.indexOf("left out: ") + 10, hint.indexOf(" (")).split(", ");
    expect(suggested.split(",").some((c) => hidden.includes(c))).toBe(true);
    const again = await t.capture(["reports", kind, ...week, "--fields", suggested], { stdoutIsTTY: true, columns: 80 });
    expect(again.exitCode, again.stderr).toBe(0);
    for (const line of visible(again.stdout).trimEnd().split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(headerOf(again.stdout)).toEqual(suggested.split(","));
  });

  it("every column by --fields at 80 columns: wrapped within 80, every column and value kept", async () => {
    const week = ["--from", "2025-02-01", "--to", "2025-02-07"];
    const all = columnsOf("user-results");
    const r = await t.capture(["reports", "user-results", ...week, "--fields", all.join(",")], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = visible(r.stdout).trimEnd().split("\n");
    if (lines.length === 1) {
      // Not one character a column fits: one line saying so, pointing at -o csv.
      expect(lines[0]).toContain("-o csv");
      return;
    }
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    const [header, ...rows] = columnTexts(visible(r.stdout));
    expect(header).toEqual(all.map(squeeze));
    const csv = await t.capture(["reports", "user-results", ...week, "-o", "csv", "--fields", all.join(",")]);
    const records: string[][] = parse(csv.stdout);
    expect(rows).toEqual(records.slice(1).map((record) => record.map(squeeze)));
  });

  it("--fields with the service's own names gives exactly those CSV columns", async () => {
    const wanted = columnsOf("users").slice(-2).reverse();
    const r = await t.run(["reports", "users", ...RANGE, "-o", "csv", "--fields", wanted.join(",")], { env: FAST });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows: string[][] = parse(r.stdout);
    expect(rows[0]).toEqual(wanted);
  });

  it("--fields with a name the service does not send: exit 2 after at most one request, naming the columns sent", async () => {
    const before = reportRequests();
    const r = await t.run(["reports", "syms", "--from", "2025-03-01", "--to", "2025-05-29", "-o", "csv", "--fields", "nope"], {
      env: FAST,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`unknown field for --fields of \`syms\`: nope; the service sent these columns: `);
    for (const column of columnsOf("syms")) expect(r.stderr).toContain(column);
    expect(reportRequests() - before).toBeLessThanOrEqual(1);
  });
});
