import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LocalFileError, UsageError } from "../../src/errors.js";
import { decideColor } from "../../src/messages.js";
import { GlobalFlags } from "../../src/global-flags-schema.js";
import { readGlobalFlags, resolveOutputPlan, type PlanInput } from "../../src/output-plan.js";
import type { OutputFormat } from "../../src/output/render.js";
import type { ResolvedSettings } from "../../src/settings/resolve.js";
import { tempDir } from "../helpers/cli.js";

// issue 27 item 1: the output is decided once, by the runner, into one plan — format and
// where it came from, destination, fields, query, delimiter — before anything is sent.

function input(flags: Record<string, unknown>, more: Partial<PlanInput> & { profileOutput?: OutputFormat; tty?: boolean } = {}) {
  let settingsCalls = 0;
  const globals = GlobalFlags.parse(flags);
  const io = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: more.tty ?? false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: more.tty ? 80 : undefined,
  };
  const plan: PlanInput = {
    globals,
    io,
    env: {},
    color: decideColor(globals, {}, io),
    secretOutput: more.secretOutput ?? false,
    settings: async () => {
      settingsCalls++;
      return { output: more.profileOutput } as ResolvedSettings;
    },
    outDir: more.outDir,
    printsData: more.printsData ?? true,
  };
  return { plan, calls: () => settingsCalls };
}

describe("decideColor: once per run, for both streams", () => {
  const io = (stdout: boolean, stderr: boolean) => ({
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: stdout,
    stderrIsTTY: stderr,
    stdinIsTTY: false,
    columns: undefined,
  });
  it.each([
    ["terminals on both", {}, {}, io(true, true), { stdout: true, stderr: true }],
    ["stdout a pipe", {}, {}, io(false, true), { stdout: false, stderr: true }],
    [
      "--out: no colour in the file, the spinner keeps it",
      { out: "x.json" },
      {},
      io(true, true),
      { stdout: false, stderr: true },
    ],
    ["--no-color", { color: false }, {}, io(true, true), { stdout: false, stderr: false }],
    ["NO_COLOR set", {}, { NO_COLOR: "1" }, io(true, true), { stdout: false, stderr: false }],
    ["NO_COLOR empty counts as unset", {}, { NO_COLOR: "" }, io(true, true), { stdout: true, stderr: true }],
  ])("%s", (_what, flags, env, streams, expected) => {
    expect(decideColor(GlobalFlags.parse(flags), env, streams)).toEqual(expected);
  });
});

describe("resolveOutputPlan", () => {
  it.each([
    ["-o csv", { output: "csv" }, {}, "csv", "flag", "-o csv"],
    ["--out with an extension", { out: "/tmp/x.ndjson" }, {}, "ndjson", "out-extension", "--out /tmp/x.ndjson"],
    ["the profile", {}, { profileOutput: "csv" as const }, "csv", "profile", "the profile's output setting 'csv'"],
    ["a terminal", {}, { tty: true }, "table", "default", "the default for a terminal (table)"],
    ["a pipe", {}, {}, "json", "default", "the default for a pipe (json)"],
    ["--out-dir on a terminal", {}, { tty: true, outDir: "/tmp/d" }, "json", "default", "the default for --out-dir (json)"],
  ])("the format from %s, and where it came from", async (_what, flags, more, format, source, origin) => {
    const { plan } = input(flags, more);
    const resolved = await resolveOutputPlan(plan);
    expect(resolved.format).toBe(format);
    expect(resolved.formatSource).toBe(source);
    expect(resolved.formatOrigin).toContain(origin);
  });

  it("splits --fields, the delimiter word and the colour once", async () => {
    const { plan } = input({ fields: " date, name ", delimiter: "tab", bom: true }, { tty: true });
    const resolved = await resolveOutputPlan(plan);
    expect(resolved).toMatchObject({ fields: ["date", "name"], delimiter: "\t", bom: true, color: true, width: 80 });
  });

  it("carries the command's secret-output rule", async () => {
    expect((await resolveOutputPlan(input({}).plan)).secretOutput).toBe(false);
    expect((await resolveOutputPlan(input({}, { secretOutput: true }).plan)).secretOutput).toBe(true);
  });

  it.each([
    ["xlsx to stdout", { output: "xlsx" }, /-o xlsx writes a workbook/],
    ["an --out extension that names no format", { out: "x.pdf" }, /the extension \.pdf names no output format/],
    ["a column named twice", { fields: "a,b,a" }, /--fields names a more than once/],
    ["a bad --query", { query: "[[" }, /query/],
  ])("refuses %s before the command runs (exit 2)", async (_what, flags, message) => {
    const { plan } = input(flags);
    const error = await resolveOutputPlan(plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  });

  it("finds an --out in a missing directory before anything is sent (exit 11)", async () => {
    const dir = await tempDir();
    try {
      const { plan } = input({ out: join(dir.path, "missing", "x.json") });
      await expect(resolveOutputPlan(plan)).rejects.toBeInstanceOf(LocalFileError);
    } finally {
      await dir.remove();
    }
  });

  it("leaves -o and --out alone for a command that prints no data", async () => {
    const { plan, calls } = input({ output: "xlsx", out: "x.pdf" }, { printsData: false });
    await expect(resolveOutputPlan(plan)).resolves.toMatchObject({ out: "x.pdf" });
    expect(calls()).toBe(0);
  });

  it("refuses a global flag of the wrong type through its schema", () => {
    expect(GlobalFlags.safeParse({ delimiter: "|" }).success).toBe(false);
    expect(GlobalFlags.safeParse({ output: "pdf" }).success).toBe(false);
  });

  // The runner reads the global options by hand and asks the zod schema only for what that
  // refuses (start-up): both must take the same options to the same values.
  it.each<[string, Record<string, unknown>]>([
    ["none", {}],
    ["every kind", { profile: "p", output: "csv", out: "x.csv", bom: true, delimiter: "tab", quiet: false, state: "/s" }],
    ["a command's own options beside them", { user: "u", fromCsv: "f.csv", verbose: true }],
    ["an option left undefined", { output: undefined, out: undefined }],
    ["an empty string where one may be", { fields: "", profile: "" }],
    ["a format that is not one", { output: "pdf" }],
    ["a delimiter that is not one", { delimiter: "|" }],
    ["an empty --out", { out: "" }],
    ["an empty --ping-url", { pingUrl: "" }],
    ["an empty --junit", { junit: "" }],
    ["an empty --state", { state: "" }],
    ["a string for a switch", { quiet: "yes" }],
    ["a switch for a string", { profile: true }],
    ["a number", { timeout: 5 }],
    ["a list", { org: ["a", "b"] }],
  ])("reads global options as their schema does: %s", (_name, flags) => {
    const parsed = GlobalFlags.safeParse(flags);
    const read = readGlobalFlags(flags);
    if (parsed.success) expect(read).toStrictEqual(parsed.data);
    else expect(read).toBeUndefined();
  });
});

describe("a command's own default format is decided with the plan, not when printing", () => {
  it.each([
    ["text: a bare value on a terminal", "text", {}, { tty: true }, "text"],
    ["text: the profile's format gives way", "text", {}, { profileOutput: "csv" as OutputFormat }, "text"],
    ["text: -o wins", "text", { output: "json" }, {}, "json"],
    ["text: --query prints by its answer", "text", { query: "key" }, { tty: true }, "table"],
    ["json: an answer on a terminal", "json", {}, { tty: true }, "json"],
    ["json: the profile's format gives way", "json", {}, { profileOutput: "csv" as OutputFormat }, "json"],
    ["json: --out's extension wins", "json", { out: "/tmp/answer.csv" }, {}, "csv"],
  ] as const)("%s", async (_name, ownFormat, flags, more, expected) => {
    const { plan } = input(flags, more);
    expect((await resolveOutputPlan({ ...plan, ownFormat })).format).toBe(expected);
  });
});

describe("an output directory's files (reports --out-dir, progress --split-by): the plan's one rule", () => {
  it.each(["table", "text"] as const)("-o %s into a directory is exit 2 before anything is sent", async (output) => {
    const { plan } = input({ output }, { outDir: "/tmp/somewhere", tty: true });
    await expect(resolveOutputPlan(plan)).rejects.toThrow(
      new UsageError(`--out-dir writes files: use -o csv, json, ndjson or xlsx, not ${output} (-o ${output})`),
    );
  });

  it("the default is json, or the command's own (progress: csv), never the terminal's table", async () => {
    const { plan } = input({}, { outDir: "/tmp/somewhere", tty: true });
    expect((await resolveOutputPlan(plan)).format).toBe("json");
    expect((await resolveOutputPlan({ ...plan, outDirFormat: "csv" })).format).toBe("csv");
    const { plan: profiled } = input({}, { outDir: "/tmp/somewhere", profileOutput: "ndjson" });
    expect((await resolveOutputPlan({ ...profiled, outDirFormat: "csv" })).format).toBe("ndjson");
  });
});
