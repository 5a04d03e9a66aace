import { describe, expect, it } from "vitest";
import { LocalFileError } from "../../src/errors.js";
import { openXlsxWorkbook } from "../../src/output/xlsx.js";

// Issue 22 item 3: a workbook whose file fails mid-way (a full disk) fails with that file's
// error — exit 11 naming it — not exceljs' "The operation was aborted" (exit 1) or a line of
// ERR_STREAM_DESTROYED per sheet. The same failure on a real full tmpfs: test/cli/full-disk.test.ts.

function failingSink(afterBytes: number) {
  let written = 0;
  const error = new LocalFileError("cannot write /full/out.xlsx: no space left on device (ENOSPC)", {
    path: "/full/out.xlsx",
    code: "ENOSPC",
  });
  return {
    error,
    sink: {
      async write(chunk: Uint8Array) {
        written += chunk.length;
        if (written > afterBytes) throw error;
      },
    },
  };
}

async function writeRows(sheetCount: number, rows: number, afterBytes: number): Promise<unknown> {
  const { sink } = failingSink(afterBytes);
  const workbook = await openXlsxWorkbook(sink);
  try {
    for (let s = 0; s < sheetCount; s++) {
      const sheet = workbook.addSheet(`kind-${s}`);
      await sheet.header(["date", "name", "score"]);
      for (let i = 0; i < rows; i++)
        await sheet.row([`2026-01-${String((i % 28) + 1).padStart(2, "0")}`, `user ${i} ${"x".repeat(40)}`, i]);
      await sheet.end();
    }
    await workbook.commit();
    return undefined;
  } catch (error) {
    workbook.abort();
    return error;
  }
}

describe("xlsx output onto a file that fails", () => {
  it.each([
    ["one sheet, failing at once", 1, 1_000, 0],
    ["one sheet, failing mid-way", 1, 1_000, 20_000],
    ["seven sheets (reports all), failing in the second", 7, 500, 20_000],
  ])("%s: the file's own error (exit 11), nothing else", async (_name, sheets, rows, afterBytes) => {
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown): void => void unhandled.push(error);
    process.on("unhandledRejection", onUnhandled);
    try {
      const error = await writeRows(sheets, rows, afterBytes);
      expect(error).toBeInstanceOf(LocalFileError);
      expect((error as LocalFileError).exitCode).toBe(11);
      expect((error as LocalFileError).message).toBe("cannot write /full/out.xlsx: no space left on device (ENOSPC)");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
