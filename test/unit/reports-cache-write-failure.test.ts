import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DateRange } from "../../src/domain/date-windows.js";
import { failure } from "../helpers/failure.js";

// A window file that cannot be written (src/engines/reports/cache.ts, save): a full disk or
// quota names the resume cache's directory and what to do (docs/cli-contract.md "Behaviour every
// command keeps"); any other write failure is the file's own error. A full disk cannot be made
// for real without root and a mount (test/cli/full-disk.test.ts does, as root): the one failing
// write is made to fail here (docs/mutation-testing.md: a test file of its own, so that every
// other file keeps the real module).

const failWith: { code: string | undefined } = { code: undefined };
vi.doMock("../../src/output/io.js", async () => {
  const real = await vi.importActual<typeof import("../../src/output/io.js")>("../../src/output/io.js");
  return {
    ...real,
    writeChunk: async (...args: Parameters<typeof real.writeChunk>) => {
      if (failWith.code !== undefined)
        throw Object.assign(new Error(`${failWith.code}: write`), { code: failWith.code, errno: -28, syscall: "write" });
      return real.writeChunk(...args);
    },
  };
});

let cacheModule: typeof import("../../src/engines/reports/cache.js");
let LocalFileError: typeof import("../../src/errors.js").LocalFileError;
let root: string;
beforeAll(async () => {
  vi.resetModules();
  cacheModule = await import("../../src/engines/reports/cache.js");
  ({ LocalFileError } = await import("../../src/errors.js"));
  root = await mkdtemp(join(tmpdir(), "simadmin-cache-fail-"));
});
afterAll(async () => {
  vi.doUnmock("../../src/output/io.js");
  vi.resetModules();
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  failWith.code = undefined;
});

const JAN: DateRange = { startDate: "2026-01-01", endDate: "2026-01-30" };
const IDENTITY = { baseUrl: "https://sim.example.com", apiVersion: 2 as const, keyFingerprint: "f" };
async function* answer(): AsyncGenerator<Uint8Array> {
  yield Buffer.from('[{"id":1}]');
}

describe("a window file that cannot be written", () => {
  it.each(["ENOSPC", "EDQUOT"])(
    "%s: the file's error, with a hint naming the cache directory and SIMADMIN_CONFIG_DIR; no file left",
    async (code) => {
      const dir = join(root, code);
      const cache = await cacheModule.ReportCache.open(dir, IDENTITY, () => Date.now());
      failWith.code = code;
      const error = await failure(cache.save("users", JAN, answer(), "report users 2026-01-01..2026-01-30"));
      expect(error).toBeInstanceOf(LocalFileError);
      expect(error.message).toMatch(new RegExp(`^cannot write ${dir}/[0-9a-f]{40}\\.json: .*\\(${code}\\)$`));
      expect((error as InstanceType<typeof LocalFileError>).hint).toBe(
        `report windows pass through the resume cache in ${dir}: free space there, or point SIMADMIN_CONFIG_DIR at a disk that has it`,
      );
      expect(await readdir(dir)).toEqual([]);
    },
  );

  it("another write failure is the file's error as it is, with no hint about space", async () => {
    const dir = join(root, "eio");
    const cache = await cacheModule.ReportCache.open(dir, IDENTITY, () => Date.now());
    failWith.code = "EIO";
    const error = await failure(cache.save("users", JAN, answer(), "label"));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toMatch(new RegExp(`^cannot write ${dir}/[0-9a-f]{40}\\.json: .*\\(EIO\\)$`));
    expect((error as InstanceType<typeof LocalFileError>).hint).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
    // The same window written once the disk works again.
    failWith.code = undefined;
    await cache.save("users", JAN, answer(), "label");
    expect(await cache.has("users", JAN)).toBe(true);
  });
});
