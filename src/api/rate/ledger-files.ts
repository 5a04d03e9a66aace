import * as fs from "node:fs";
import { promisify } from "node:util";

// The file calls of the rate ledger and its lock (file-store.ts, ledger-lock.ts): node:fs/promises'
// functions of the same names, made from node:fs's callbacks. Every command that sends a request
// makes them, and node:fs/promises would load ~3 ms of modules more (file handles, with readline
// and watchers behind them) where node:fs and node:util are loaded before simadmin's first line
// (docs/architecture.md, Start-up). One object, read at each call, so that tests can replace one
// call (a full disk, a lock moved in between) with vi.spyOn.

export const ledgerFs = {
  chmod: promisify(fs.chmod),
  link: promisify(fs.link),
  mkdir: promisify(fs.mkdir),
  readFile: promisify(fs.readFile),
  rename: promisify(fs.rename),
  unlink: promisify(fs.unlink),
  writeFile: promisify(fs.writeFile),
};
