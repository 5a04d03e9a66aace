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
