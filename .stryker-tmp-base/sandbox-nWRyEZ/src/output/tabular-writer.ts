// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { throwIfAborted } from "../errors.js";
import { flattenRecord, type Cell, type JsonRecord } from "../domain/records.js";
import { FLUSH_AT } from "./chunk-writer.js";
import { FieldsGate } from "./fields-check.js";
import { writeChunk } from "./io.js";
import type { RecordStreamOptions, RecordWriter } from "./record-types.js";

// csv and xlsx (record-stream.ts): the header is the union of the flattened columns in
// first-seen order, known only after the last record, so rows wait — in memory up to
// 64 KiB, then in a spool file in a private (0700) temp dir — and are written after the
// header at the end. The spool stores each row as an array in column-discovery order, so
// nothing is remapped and no row is held in memory. With --fields the columns are known up
// front and rows stream straight through.

/** Where csv and xlsx rows go once the columns are known. */
export interface RowOutput {
  begin(columns: string[]): Promise<void>;
  row(cells: readonly (Cell | undefined)[]): Promise<void>;
  end(): Promise<void>;
  abort(): void;
}

/**
 * csv and xlsx: with --fields the header goes first and every row streams straight
 * through; without, the header is known only at the end and rows wait (in memory up to
 * 64 KiB, then in a spool file).
 */
export class TabularRecordWriter implements RecordWriter {
  count = 0;
  private readonly gate: FieldsGate;
  private readonly columnIndex = new Map<string, number>();
  private readonly columns: string[] = stryMutAct_9fa48("7281") ? ["Stryker was here"] : (stryCov_9fa48("7281"), []);
  private spool: {
    dir: string;
    path: string;
    stream: WriteStream;
  } | undefined;
  private spoolBuffer = stryMutAct_9fa48("7282") ? "Stryker was here!" : (stryCov_9fa48("7282"), "");
  private begun = stryMutAct_9fa48("7283") ? true : (stryCov_9fa48("7283"), false);
  private finished = stryMutAct_9fa48("7284") ? true : (stryCov_9fa48("7284"), false);
  constructor(private readonly output: RowOutput, private readonly options: RecordStreamOptions) {
    if (stryMutAct_9fa48("7285")) {
      {}
    } else {
      stryCov_9fa48("7285");
      this.gate = new FieldsGate(options.fields, options.knownFields, stryMutAct_9fa48("7286") ? true : (stryCov_9fa48("7286"), false));
    }
  }
  private async begin(columns: string[]): Promise<void> {
    if (stryMutAct_9fa48("7287")) {
      {}
    } else {
      stryCov_9fa48("7287");
      if (stryMutAct_9fa48("7289") ? false : stryMutAct_9fa48("7288") ? true : (stryCov_9fa48("7288", "7289"), this.begun)) return;
      this.begun = stryMutAct_9fa48("7290") ? false : (stryCov_9fa48("7290"), true);
      await this.output.begin(columns);
    }
  }
  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    if (stryMutAct_9fa48("7291")) {
      {}
    } else {
      stryCov_9fa48("7291");
      this.gate.check(records);
      const {
        fields
      } = this.options;
      if (stryMutAct_9fa48("7293") ? false : stryMutAct_9fa48("7292") ? true : (stryCov_9fa48("7292", "7293"), fields)) {
        if (stryMutAct_9fa48("7294")) {
          {}
        } else {
          stryCov_9fa48("7294");
          if (stryMutAct_9fa48("7298") ? records.length <= 0 : stryMutAct_9fa48("7297") ? records.length >= 0 : stryMutAct_9fa48("7296") ? false : stryMutAct_9fa48("7295") ? true : (stryCov_9fa48("7295", "7296", "7297", "7298"), records.length > 0)) await this.begin(fields);
          for (const record of records) {
            if (stryMutAct_9fa48("7299")) {
              {}
            } else {
              stryCov_9fa48("7299");
              const flat = flattenRecord(record);
              await this.output.row(fields.map(stryMutAct_9fa48("7300") ? () => undefined : (stryCov_9fa48("7300"), field => flat[field])));
              stryMutAct_9fa48("7301") ? this.count-- : (stryCov_9fa48("7301"), this.count++);
            }
          }
          return;
        }
      }
      for (const record of records) {
        if (stryMutAct_9fa48("7302")) {
          {}
        } else {
          stryCov_9fa48("7302");
          const flat = flattenRecord(record);
          const row: Cell[] = stryMutAct_9fa48("7303") ? ["Stryker was here"] : (stryCov_9fa48("7303"), []);
          for (const [key, value] of Object.entries(flat)) {
            if (stryMutAct_9fa48("7304")) {
              {}
            } else {
              stryCov_9fa48("7304");
              let index = this.columnIndex.get(key);
              if (stryMutAct_9fa48("7307") ? index !== undefined : stryMutAct_9fa48("7306") ? false : stryMutAct_9fa48("7305") ? true : (stryCov_9fa48("7305", "7306", "7307"), index === undefined)) {
                if (stryMutAct_9fa48("7308")) {
                  {}
                } else {
                  stryCov_9fa48("7308");
                  index = this.columns.length;
                  this.columnIndex.set(key, index);
                  this.columns.push(key);
                }
              }
              row[index] = value;
            }
          }
          // Holes (columns this record lacks) become null in JSON: an empty cell either way.
          this.spoolBuffer += stryMutAct_9fa48("7309") ? `` : (stryCov_9fa48("7309"), `${JSON.stringify(row)}\n`);
          if (stryMutAct_9fa48("7313") ? this.spoolBuffer.length < FLUSH_AT : stryMutAct_9fa48("7312") ? this.spoolBuffer.length > FLUSH_AT : stryMutAct_9fa48("7311") ? false : stryMutAct_9fa48("7310") ? true : (stryCov_9fa48("7310", "7311", "7312", "7313"), this.spoolBuffer.length >= FLUSH_AT)) {
            if (stryMutAct_9fa48("7314")) {
              {}
            } else {
              stryCov_9fa48("7314");
              throwIfAborted(this.options.signal);
              await this.flushSpool();
            }
          }
          stryMutAct_9fa48("7315") ? this.count-- : (stryCov_9fa48("7315"), this.count++);
        }
      }
    }
  }
  async end(): Promise<void> {
    if (stryMutAct_9fa48("7316")) {
      {}
    } else {
      stryCov_9fa48("7316");
      if (stryMutAct_9fa48("7318") ? false : stryMutAct_9fa48("7317") ? true : (stryCov_9fa48("7317", "7318"), this.finished)) return;
      this.finished = stryMutAct_9fa48("7319") ? false : (stryCov_9fa48("7319"), true);
      try {
        if (stryMutAct_9fa48("7320")) {
          {}
        } else {
          stryCov_9fa48("7320");
          this.gate.finish();
          if (stryMutAct_9fa48("7322") ? false : stryMutAct_9fa48("7321") ? true : (stryCov_9fa48("7321", "7322"), this.options.fields)) {
            if (stryMutAct_9fa48("7323")) {
              {}
            } else {
              stryCov_9fa48("7323");
              await this.begin(this.options.fields);
            }
          } else {
            if (stryMutAct_9fa48("7324")) {
              {}
            } else {
              stryCov_9fa48("7324");
              await this.begin((stryMutAct_9fa48("7327") ? this.columns.length > 0 && this.count > 0 : stryMutAct_9fa48("7326") ? false : stryMutAct_9fa48("7325") ? true : (stryCov_9fa48("7325", "7326", "7327"), (stryMutAct_9fa48("7330") ? this.columns.length <= 0 : stryMutAct_9fa48("7329") ? this.columns.length >= 0 : stryMutAct_9fa48("7328") ? false : (stryCov_9fa48("7328", "7329", "7330"), this.columns.length > 0)) || (stryMutAct_9fa48("7333") ? this.count <= 0 : stryMutAct_9fa48("7332") ? this.count >= 0 : stryMutAct_9fa48("7331") ? false : (stryCov_9fa48("7331", "7332", "7333"), this.count > 0)))) ? this.columns : stryMutAct_9fa48("7334") ? this.options.knownFields && [] : (stryCov_9fa48("7334"), this.options.knownFields ?? (stryMutAct_9fa48("7335") ? ["Stryker was here"] : (stryCov_9fa48("7335"), []))));
              await this.writeSpooledRows();
            }
          }
          await this.output.end();
        }
      } catch (error) {
        if (stryMutAct_9fa48("7336")) {
          {}
        } else {
          stryCov_9fa48("7336");
          this.output.abort();
          throw error;
        }
      } finally {
        if (stryMutAct_9fa48("7337")) {
          {}
        } else {
          stryCov_9fa48("7337");
          await this.removeSpool();
        }
      }
    }
  }
  async abort(): Promise<void> {
    if (stryMutAct_9fa48("7338")) {
      {}
    } else {
      stryCov_9fa48("7338");
      this.finished = stryMutAct_9fa48("7339") ? false : (stryCov_9fa48("7339"), true);
      this.output.abort();
      await this.removeSpool();
    }
  }
  private async openSpool(): Promise<NonNullable<TabularRecordWriter["spool"]>> {
    if (stryMutAct_9fa48("7340")) {
      {}
    } else {
      stryCov_9fa48("7340");
      if (stryMutAct_9fa48("7342") ? false : stryMutAct_9fa48("7341") ? true : (stryCov_9fa48("7341", "7342"), this.spool)) return this.spool;
      // mkdtemp creates the directory 0700: other local users cannot read the report rows.
      const dir = await mkdtemp(join(stryMutAct_9fa48("7343") ? this.options.spoolDir && tmpdir() : (stryCov_9fa48("7343"), this.options.spoolDir ?? tmpdir()), stryMutAct_9fa48("7344") ? "" : (stryCov_9fa48("7344"), "simadmin-spool-")));
      const path = join(dir, stryMutAct_9fa48("7345") ? "" : (stryCov_9fa48("7345"), "rows.ndjson"));
      const stream = createWriteStream(path, stryMutAct_9fa48("7346") ? {} : (stryCov_9fa48("7346"), {
        mode: 0o600,
        flags: stryMutAct_9fa48("7347") ? "" : (stryCov_9fa48("7347"), "wx")
      }));
      this.spool = stryMutAct_9fa48("7348") ? {} : (stryCov_9fa48("7348"), {
        dir,
        path,
        stream
      });
      return this.spool;
    }
  }
  private async flushSpool(): Promise<void> {
    if (stryMutAct_9fa48("7349")) {
      {}
    } else {
      stryCov_9fa48("7349");
      if (stryMutAct_9fa48("7352") ? this.spoolBuffer !== "" : stryMutAct_9fa48("7351") ? false : stryMutAct_9fa48("7350") ? true : (stryCov_9fa48("7350", "7351", "7352"), this.spoolBuffer === (stryMutAct_9fa48("7353") ? "Stryker was here!" : (stryCov_9fa48("7353"), "")))) return;
      const spool = await this.openSpool();
      const text = this.spoolBuffer;
      this.spoolBuffer = stryMutAct_9fa48("7354") ? "Stryker was here!" : (stryCov_9fa48("7354"), "");
      await writeChunk(spool.stream, text);
    }
  }

  /** Spooled rows in order, each padded to the final width (rows spooled before later columns appeared are shorter). */
  private async writeSpooledRows(): Promise<void> {
    if (stryMutAct_9fa48("7355")) {
      {}
    } else {
      stryCov_9fa48("7355");
      const width = this.columns.length;
      const writeLines = async (text: string): Promise<number> => {
        if (stryMutAct_9fa48("7356")) {
          {}
        } else {
          stryCov_9fa48("7356");
          let start = 0;
          for (let end = text.indexOf(stryMutAct_9fa48("7357") ? "" : (stryCov_9fa48("7357"), "\n")); stryMutAct_9fa48("7359") ? end === -1 : stryMutAct_9fa48("7358") ? false : (stryCov_9fa48("7358", "7359"), end !== (stryMutAct_9fa48("7360") ? +1 : (stryCov_9fa48("7360"), -1))); end = text.indexOf(stryMutAct_9fa48("7361") ? "" : (stryCov_9fa48("7361"), "\n"), start)) {
            if (stryMutAct_9fa48("7362")) {
              {}
            } else {
              stryCov_9fa48("7362");
              const row = JSON.parse(text.slice(start, end)) as Cell[];
              start = stryMutAct_9fa48("7363") ? end - 1 : (stryCov_9fa48("7363"), end + 1);
              const cells: (Cell | undefined)[] = stryMutAct_9fa48("7364") ? new Array() : (stryCov_9fa48("7364"), new Array<Cell | undefined>(width));
              for (let i = 0; stryMutAct_9fa48("7367") ? i >= width : stryMutAct_9fa48("7366") ? i <= width : stryMutAct_9fa48("7365") ? false : (stryCov_9fa48("7365", "7366", "7367"), i < width); stryMutAct_9fa48("7368") ? i-- : (stryCov_9fa48("7368"), i++)) cells[i] = row[i];
              await this.output.row(cells);
            }
          }
          return start;
        }
      };
      if (stryMutAct_9fa48("7371") ? false : stryMutAct_9fa48("7370") ? true : stryMutAct_9fa48("7369") ? this.spool : (stryCov_9fa48("7369", "7370", "7371"), !this.spool)) {
        if (stryMutAct_9fa48("7372")) {
          {}
        } else {
          stryCov_9fa48("7372");
          // A small result never touched the disk.
          const text = this.spoolBuffer;
          this.spoolBuffer = stryMutAct_9fa48("7373") ? "Stryker was here!" : (stryCov_9fa48("7373"), "");
          await writeLines(text);
          return;
        }
      }
      await this.flushSpool();
      const {
        stream,
        path
      } = this.spool;
      await new Promise<void>(stryMutAct_9fa48("7374") ? () => undefined : (stryCov_9fa48("7374"), (resolve, reject) => stream.end(stryMutAct_9fa48("7375") ? () => undefined : (stryCov_9fa48("7375"), (error?: Error | null) => error ? reject(error) : resolve()))));
      // Lines split by hand rather than with readline, whose async iterator reads ahead
      // without waiting for the consumer: on a spool of a million rows it held far more
      // than a chunk. JSON.stringify escapes line breaks, so "\n" only ends rows.
      let rest = stryMutAct_9fa48("7376") ? "Stryker was here!" : (stryCov_9fa48("7376"), "");
      for await (const chunk of createReadStream(path, {
        encoding: "utf8",
        highWaterMark: FLUSH_AT
      }) as AsyncIterable<string>) {
        if (stryMutAct_9fa48("7377")) {
          {}
        } else {
          stryCov_9fa48("7377");
          throwIfAborted(this.options.signal);
          const text = stryMutAct_9fa48("7378") ? rest - chunk : (stryCov_9fa48("7378"), rest + chunk);
          rest = stryMutAct_9fa48("7379") ? text : (stryCov_9fa48("7379"), text.slice(await writeLines(text)));
        }
      }
    }
  }
  private async removeSpool(): Promise<void> {
    if (stryMutAct_9fa48("7380")) {
      {}
    } else {
      stryCov_9fa48("7380");
      const spool = this.spool;
      this.spool = undefined;
      this.spoolBuffer = stryMutAct_9fa48("7381") ? "Stryker was here!" : (stryCov_9fa48("7381"), "");
      if (stryMutAct_9fa48("7384") ? false : stryMutAct_9fa48("7383") ? true : stryMutAct_9fa48("7382") ? spool : (stryCov_9fa48("7382", "7383", "7384"), !spool)) return;
      spool.stream.destroy();
      await rm(spool.dir, stryMutAct_9fa48("7385") ? {} : (stryCov_9fa48("7385"), {
        recursive: stryMutAct_9fa48("7386") ? false : (stryCov_9fa48("7386"), true),
        force: stryMutAct_9fa48("7387") ? false : (stryCov_9fa48("7387"), true)
      }));
    }
  }
}