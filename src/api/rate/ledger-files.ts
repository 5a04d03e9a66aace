import * as fs from "node:fs";

// The file calls of the rate ledger and its lock (file-store.ts, ledger-lock.ts), with the
// names and promises of node:fs/promises but made synchronously underneath. Every request
// makes two transactions of about ten such calls on files of a few hundred bytes; each call
// through libuv's file-system threads is a round trip between two threads, and the calls
// cost ~1 ms of CPU a transaction against ~0.25 ms made in place (docs/rate-limits.md,
// "Shared across processes"). A call holds this process for as long as the file system
// takes: microseconds, but ~1–2 ms for the rename over the ledger, which ext4 holds while it
// starts writing the new file's data — time the run waits for anyway, its request going out
// after the transaction. Only that rename through libuv's threads would leave the process
// free meanwhile, at ~0.13 ms more CPU a transaction. node:fs/promises itself would load ~3 ms
// of modules more (docs/architecture.md, Start-up). One object, read at each call, so that
// tests can replace one call (a full disk, a lock moved in between) with vi.spyOn; a failure
// is a rejected promise, as it was.

export const ledgerFs = {
  chmod: async (path: string, mode: number): Promise<void> => fs.chmodSync(path, mode),
  link: async (existing: string, created: string): Promise<void> => fs.linkSync(existing, created),
  mkdir: async (path: string, options: fs.MakeDirectoryOptions & { recursive: true }): Promise<string | undefined> =>
    fs.mkdirSync(path, options),
  readFile: async (path: string, encoding: "utf8"): Promise<string> => fs.readFileSync(path, encoding),
  rename: async (from: string, to: string): Promise<void> => fs.renameSync(from, to),
  unlink: async (path: string): Promise<void> => fs.unlinkSync(path),
  writeFile: async (path: string, data: string, options: fs.WriteFileOptions): Promise<void> =>
    fs.writeFileSync(path, data, options),
};
