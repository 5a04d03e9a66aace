// @ts-nocheck
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/sandbox/server.js";
import { startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// users import of the files Excel and LibreOffice write (fixtures/users/spreadsheet, made
// by LibreOffice from staff.ods): each one, imported through the real program in-process, must send
// the sandbox every name exactly as typed in the workbook (docs/cli-contract.md "Users CSV").
// A wrong or unknown encoding sends nothing.

const UPLOAD = "/v2/access-api/user/bulk-import";
const SPREADSHEET = resolve(import.meta.dirname, "../../fixtures/users/spreadsheet");
const expected = JSON.parse(await readFile(join(SPREADSHEET, "expected.json"), "utf8")) as {
  users: [string, string, string][];
  files: Record<string, { args: string[]; encoding: string; delimiter: string }>;
};

let t: TestEnv;
const dirs: { remove(): Promise<void> }[] = [];
beforeEach(async () => {
  t = await startTestEnv({ rateLimits: { access: { limit: 10_000, windowMs: 1000 } }, importStepMs: 100 });
});
afterEach(async () => {
  await t.close();
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

async function inTemp(name: string, bytes?: Uint8Array): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  if (bytes === undefined) await copyFile(join(SPREADSHEET, name), join(dir.path, name));
  else await writeFile(join(dir.path, name), bytes);
  return dir.path;
}

const uploads = (sent: RecordedRequest[]): RecordedRequest[] => sent.filter((r) => r.path === UPLOAD);

describe("users import: files written by a spreadsheet", () => {
  it.each(Object.entries(expected.files))("%s: the sandbox receives every name exactly", async (name, want) => {
    const cwd = await inTemp(name);
    const r = await t.capture(["users", "import", name, ...want.args, "--yes", "-o", "json"], { cwd });
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = uploads(r.sent);
    expect(sent).toHaveLength(1);
    const rows: Record<string, string>[] = parse((sent[0]!.body as { csvText: string }).csvText, { columns: true });
    expect(rows.map((u) => [u.firstName, u.lastName, u.teamName])).toEqual(expected.users);
    expect(rows.map((u) => u.email)).toContain("zoe.muller@example.com");
  });

  it("says how a file was read in the --dry-run plan", async () => {
    const cwd = await inTemp("lo-utf16le-tab.csv");
    const r = await t.capture(["users", "import", "lo-utf16le-tab.csv", "--dry-run", "-o", "json"], { cwd });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ validRows: 5, encoding: "utf-16le", delimiter: "tab" });
    expect(r.stderr).toContain("read as UTF-16LE, delimiter tab");
    expect(r.sent).toEqual([]);
  });

  it("a windows-1252 file without --encoding: exit 6 naming the byte and row, suggesting --encoding, nothing sent", async () => {
    const cwd = await inTemp("lo-windows-1252-comma.csv");
    const r = await t.capture(["users", "import", "lo-windows-1252-comma.csv", "--yes"], { cwd });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/error: row 2: the file is not valid UTF-8: byte 0xEB \("ë" in windows-1252\) at byte offset \d+/);
    expect(r.stderr).toContain("--encoding windows-1252");
    expect(uploads(r.sent)).toEqual([]);
  });

  it("an unknown --encoding is a usage error (exit 2) before anything is read or sent", async () => {
    const cwd = await inTemp("lo-utf8-semicolon.csv");
    const r = await t.capture(["users", "import", "lo-utf8-semicolon.csv", "--encoding", "klingon", "--yes"], { cwd });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--encoding: unknown encoding "klingon"');
    expect(r.sent).toEqual([]);
  });

  it("a NUL in a name: exit 6 naming the row and column, nothing sent", async () => {
    const text =
      "firstName,lastName,username,email,role,teamName,status,action\nZo\u0000ë,Müller,z@example.com,z@example.com,trainee,,ACTIVE,Add\n";
    const cwd = await inTemp("nul.csv", Buffer.from(text));
    const r = await t.capture(["users", "import", "nul.csv", "--yes", "-o", "json"], { cwd });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        row: 2,
        field: "firstName",
        message: "contains the control character U+0000 at position 3; remove it (or check --encoding)",
      },
    ]);
    expect(uploads(r.sent)).toEqual([]);
  });
});
