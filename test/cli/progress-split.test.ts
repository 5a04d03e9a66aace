import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { MATRIX_DIALECTS, ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// progress --split-by <column> --out-dir <dir> through the output engine (docs/progress.md,
// docs/output.md): a file per value written by the output plan like any --out-dir, so --query
// and --fields apply to each file, JSON is the complete result's, and each file is named on
// stderr with its count and the value it holds.

const START = Date.UTC(2026, 10, 23, 12);
// Longer than a sheet name may be (Excel: 31 characters), shorter than a file name's 80.
const LONG = "Alexandra Montgomery-Fitzwilliam (Ops)";
const PAIRS = [
  ["user-ben", "sim-001", "Dana Reyes"],
  ["user-ben", "sim-002", "Dana Reyes"],
  ["user-emma", "sim-003", "Dana Reyes"],
  ["user-grace", "sim-004", LONG],
  ["user-hugo", "sim-005", LONG],
  ["user-hugo", "sim-006", LONG],
] as const;

type Row = Record<string, unknown>;

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

describe.each(MATRIX_DIALECTS)("progress --split-by, the %s dialect", (dialect) => {
  let t: TestEnv | undefined;
  let clock: ReturnType<typeof createFakeClock>;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  let runs = 0;
  async function start(
    pairs: readonly (readonly [string, string, string])[] = PAIRS,
  ): Promise<{ env: TestEnv; file: string; out: string }> {
    clock = createFakeClock(START);
    t = await startTestEnv({ ...ROOMY, dialect, now: () => clock.now(), scriptedAttemptStepMs: 30_000 });
    const file = join(dir.path, `pairs-${dialect}-${++runs}.csv`);
    await writeFile(
      file,
      ["userId,simulationId,dueDate,manager", ...pairs.map((p) => `${p[0]},${p[1]},2027-06-30,${p[2]}`)].join("\n"),
    );
    return { env: t, file, out: join(dir.path, `mail-${dialect}-${runs}`) };
  }
  /** What `-o json` prints for the whole file (the pairs are cached after the first run). */
  async function whole(env: TestEnv, file: string): Promise<Row[]> {
    const r = await env.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Row[];
  }

  it("names each file on stderr with its count and value; a file holds its value's rows", async () => {
    const { env, file, out } = await start();
    const r = await env.capture(["progress", "--from-csv", file, "--split-by", "manager", "--out-dir", out, "-o", "csv"], {
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    const long = "Alexandra_Montgomery-Fitzwilliam_Ops_";
    expect(r.stderr).toContain(`wrote ${join(out, "Dana_Reyes.csv")} (3 rows, manager = "Dana Reyes")\n`);
    expect(r.stderr).toContain(`wrote ${join(out, `${long}.csv`)} (3 rows, manager = "${LONG}")\n`);
    // The run's summary still follows the files.
    expect(r.stderr).toMatch(/6 pairs: /);
    expect((await readdir(out)).sort()).toEqual(["Alexandra_Montgomery-Fitzwilliam_Ops_.csv", "Dana_Reyes.csv"]);
    const dana = (await readFile(join(out, "Dana_Reyes.csv"), "utf8")).trim().split("\n");
    expect(dana.slice(1).map((line) => line.split(",").slice(0, 2).join("/"))).toEqual([
      "user-ben/sim-001",
      "user-ben/sim-002",
      "user-emma/sim-003",
    ]);
  });

  it("-o json: a file is the pretty JSON --out holds for the same rows", async () => {
    const { env, file, out } = await start(PAIRS.slice(0, 3));
    const single = join(dir.path, `all-${dialect}.json`);
    const all = await env.capture(["progress", "--from-csv", file, "-o", "json", "--out", single], { clock });
    expect(all.exitCode, all.stderr).toBe(0);
    const r = await env.capture(["progress", "--from-csv", file, "--split-by", "manager", "--out-dir", out, "-o", "json"], {
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const split = await readFile(join(out, "Dana_Reyes.json"), "utf8");
    expect(split).toBe(await readFile(single, "utf8"));
    expect(split.startsWith('[\n  {\n    "userId": "user-ben",')).toBe(true);
  });

  it("--query applies to each file's rows, as with reports --out-dir", async () => {
    const { env, file, out } = await start();
    const rows = await whole(env, file);
    const query = "[?state!='completed'].{who: userId, sim: simulationId}";
    const r = await env.capture(
      ["progress", "--from-csv", file, "--split-by", "manager", "--out-dir", out, "-o", "json", "--query", query],
      { clock },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    for (const [name, manager] of [
      ["Dana_Reyes", "Dana Reyes"],
      ["Alexandra_Montgomery-Fitzwilliam_Ops_", LONG],
    ]) {
      const expected = rows
        .filter((row) => row.manager === manager && row.state !== "completed")
        .map((row) => ({ who: row.userId, sim: row.simulationId }));
      expect(JSON.parse(await readFile(join(out, `${name}.json`), "utf8"))).toEqual(expected);
      expect(r.stderr).toContain(`wrote ${join(out, `${name}.json`)} (manager = ${JSON.stringify(manager)})\n`);
    }
  });

  it("--fields picks each file's columns; -o xlsx names a sheet by Excel's 31-character rule, the file by the whole value", async () => {
    const { env, file, out } = await start();
    const csv = await env.capture(
      ["progress", "--from-csv", file, "--split-by", "manager", "--out-dir", out, "-o", "csv", "--fields", "simulationId,state"],
      { clock },
    );
    expect(csv.exitCode, csv.stderr).toBe(0);
    expect((await readFile(join(out, "Dana_Reyes.csv"), "utf8")).split("\n")[0]).toBe("simulationId,state");
    const xlsx = await env.capture(["progress", "--from-csv", file, "--split-by", "manager", "--out-dir", out, "-o", "xlsx"], {
      clock,
    });
    expect(xlsx.exitCode, xlsx.stderr).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(out, "Alexandra_Montgomery-Fitzwilliam_Ops_.xlsx"));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Alexandra_Montgomery-Fitzwillia"]);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(2).getCell(1).value).toBe("user-grace");
  });
});
