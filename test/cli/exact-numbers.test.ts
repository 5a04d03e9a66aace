import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelopeEnds, reportEnvelope } from "../../src/sandbox/report-envelopes.js";
import { resolveDialect } from "../../src/sandbox/dialects.js";
import { FAST, MATRIX_DIALECTS, runCli, tempDir } from "../helpers/in-process.js";
import { startScriptedService, type ScriptedService } from "../helpers/scripted-service.js";

// docs/output.md "Numbers": a number JSON.parse would change — an integer beyond 2^53, 1e400 —
// leaves `--raw`, `-o json` and `-o ndjson` as the service wrote it, and CSV and xlsx show its
// digits. A report server answering in each sandbox dialect's envelope, written as text
// (JSON.stringify could not write these numbers).

const RECORD =
  '{"userName":"Ana","big":9007199254740993,"negative":-9007199254740993,"huge":12345678901234567890,' +
  '"over":1e400,"tenth":0.1,"list":[9007199254740993,1],"nested":{"id":9007199254740995}}';
const FROM = "2026-11-20";

let service: ScriptedService;
let reportAnswer = "";
const LIBRARY = '{"simulations":[{"id":"sim-1","title":"Cold call","views":9007199254740993,"rating":1e400}]}';

beforeAll(async () => {
  service = await startScriptedService((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url?.includes("/report/") ? reportAnswer : LIBRARY);
  });
});
afterAll(async () => {
  await service?.close();
});

async function run(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const dir = await tempDir();
  try {
    return await runCli(args, {
      env: {
        ...FAST,
        SIMADMIN_BASE_URL: service.baseUrl,
        SIMADMIN_API_KEY: "k-test-1",
        SIMADMIN_ORG: "org-1",
        SIMADMIN_CONFIG_DIR: dir.path,
      },
    });
  } finally {
    await dir.remove();
  }
}

const report = (...extra: string[]): string[] => ["reports", "users", "--from", FROM, "--to", FROM, ...extra];

describe.each(MATRIX_DIALECTS)("numbers JSON.parse would change, in the %s dialect's report envelope", (name) => {
  let body = "";
  beforeAll(() => {
    const [head, tail] = envelopeEnds(reportEnvelope("users", resolveDialect(name)), "users", FROM, FROM, 2, `${FROM}T00:00:00Z`);
    body = `${head}${RECORD}${tail}`;
  });
  const answering = async (args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> => {
    reportAnswer = body;
    return run(args);
  };

  it("--raw writes the answer byte for byte", async () => {
    const r = await answering(report("--raw", "-o", "ndjson"));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`{"startDate":"${FROM}","endDate":"${FROM}","response":${body}}\n`);
  });

  it("-o json and -o ndjson write each record's numbers as the service wrote them", async () => {
    const json = await answering(report("-o", "json"));
    expect(json.exitCode, json.stderr).toBe(0);
    expect(json.stdout).toBe(`[\n${RECORD}\n]\n`);
    const ndjson = await answering(report("-o", "ndjson"));
    expect(ndjson.stdout).toBe(`${RECORD}\n`);
  });

  it("-o csv writes their digits, a negative one unguarded like any number", async () => {
    const r = await answering(report("-o", "csv"));
    expect(r.exitCode, r.stderr).toBe(0);
    const [row] = parse<Record<string, string>>(r.stdout, { columns: true });
    expect(row).toEqual({
      userName: "Ana",
      big: "9007199254740993",
      negative: "-9007199254740993",
      huge: "12345678901234567890",
      over: "1e400",
      tenth: "0.1",
      list: "9007199254740993;1",
      "nested.id": "9007199254740995",
    });
  });
});

describe("numbers JSON.parse would change, elsewhere", () => {
  it("an answer that is one record keeps them too", async () => {
    reportAnswer = '{"total":12345678901234567890,"over":1e400}';
    const r = await run(report("-o", "ndjson"));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${reportAnswer}\n`);
  });

  it("xlsx holds their digits as text (a number cell would round them)", async () => {
    reportAnswer = `[${RECORD}]`;
    const dir = await tempDir();
    try {
      const file = join(dir.path, "r.xlsx");
      const r = await run(report("-o", "xlsx", "--out", file));
      expect(r.exitCode, r.stderr).toBe(0);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(file);
      const values = workbook.worksheets[0]!.getRow(2).values as unknown[];
      expect(values.slice(1, 6)).toEqual(["Ana", "9007199254740993", "-9007199254740993", "12345678901234567890", "1e400"]);
      expect(values[6]).toBe(0.1);
    } finally {
      await dir.remove();
    }
  });

  it("--query compares them as the nearest double (docs/output.md)", async () => {
    reportAnswer = `[${RECORD}]`;
    const r = await run(report("--query", "[?big > `9007199254740991`].big", "-o", "json"));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([9007199254740992]);
  });

  it("library -o json and `api` pass a listing's values on as the service wrote them", async () => {
    const library = await run(["library", "--user", "user-1", "-o", "ndjson"]);
    expect(library.exitCode, library.stderr).toBe(0);
    expect(library.stdout).toBe('{"id":"sim-1","title":"Cold call","views":9007199254740993,"rating":1e400}\n');
    const api = await run(["api", "/v2/access-api/simulation/library"]);
    expect(api.exitCode, api.stderr).toBe(0);
    expect(api.stdout).toContain('"views": 9007199254740993,');
    expect(api.stdout).toContain('"rating": 1e400');
  });
});
