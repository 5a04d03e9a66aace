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
import { UsageError } from "../errors.js";
import { extractRecords, type JsonRecord } from "../domain/records.js";
import { BufferedChunkWriter } from "./chunk-writer.js";
import { jsonText } from "./json-text.js";
import { createRecordWriter } from "./record-stream.js";
import type { ChunkSink } from "./record-types.js";

// A command's complete result, printed: a stream of one batch through the output engine
// (record-stream.ts), so every format is written in one place with one --fields check.
// Machine formats (json, ndjson, csv, xlsx) are stable and complete; table is for people
// and may shorten cells.

export const OUTPUT_FORMATS = ["table", "json", "csv", "ndjson", "xlsx", "text"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export interface RenderOptions {
  format: OutputFormat;
  /** --fields: columns to keep, in this order. */
  fields?: string[] | undefined;
  /** --bom: UTF-8 byte-order mark before CSV, for Excel. */
  bom?: boolean;
  /** --delimiter: the CSV delimiter; default ",". */
  delimiter?: "," | ";" | "\t" | undefined;
  color?: boolean;
  /** Terminal width, to shorten table cells. */
  width?: number | undefined;
  /** xlsx: the sheet's name. */
  sheetName?: string | undefined;
}

/** What a command hands back for printing. */
export type CommandResult = {
  kind: "records";
  records: JsonRecord[];
  /** Table columns when --fields is not given (json/csv keep every field). */
  tableColumns?: string[];
  /** Columns that exist even when no record came back, for --fields checks. */
  knownFields?: string[];
  /** A line for people after a table (e.g. a summary); stderr, never in machine output. */
  note?: string;
  /**
   * Table only: the one column that takes the width left over (library's description),
   * shortened to fit; the others keep their natural width. Without it every column gets
   * an equal share, which would cut short ids and titles to make room for nothing.
   */
  flexColumn?: string;
} | {
  kind: "object";
  value: JsonRecord;
  /** The bare value for `-o text` (token, link); absent means text is not offered. */
  text?: string;
  /** Print `text` when no -o was given (config get/path: a bare value is what scripts want). */
  defaultText?: boolean;
  note?: string;
} | {
  /**
   * A service answer of any shape (`simadmin api`): printed as JSON as it came unless -o
   * or --out asks for a format, and then by shape — table, csv, ndjson and xlsx take its
   * records (docs/cli-contract.md, "Records of unknown shape"), text its bare values.
   */
  kind: "answer";
  value: unknown;
} | {
  kind: "none";
};

/**
 * A JSON value (a --query answer) as a result: a list as records (non-objects in a `value`
 * column), an object as one object, any other value as one `value` record.
 */
export function resultOfJson(value: unknown): CommandResult {
  if (stryMutAct_9fa48("6734")) {
    {}
  } else {
    stryCov_9fa48("6734");
    const isObject = stryMutAct_9fa48("6735") ? () => undefined : (stryCov_9fa48("6735"), (() => {
      const isObject = (v: unknown): v is JsonRecord => stryMutAct_9fa48("6738") ? typeof v === "object" && v !== null || !Array.isArray(v) : stryMutAct_9fa48("6737") ? false : stryMutAct_9fa48("6736") ? true : (stryCov_9fa48("6736", "6737", "6738"), (stryMutAct_9fa48("6740") ? typeof v === "object" || v !== null : stryMutAct_9fa48("6739") ? true : (stryCov_9fa48("6739", "6740"), (stryMutAct_9fa48("6742") ? typeof v !== "object" : stryMutAct_9fa48("6741") ? true : (stryCov_9fa48("6741", "6742"), typeof v === (stryMutAct_9fa48("6743") ? "" : (stryCov_9fa48("6743"), "object")))) && (stryMutAct_9fa48("6745") ? v === null : stryMutAct_9fa48("6744") ? true : (stryCov_9fa48("6744", "6745"), v !== null)))) && (stryMutAct_9fa48("6746") ? Array.isArray(v) : (stryCov_9fa48("6746"), !Array.isArray(v))));
      return isObject;
    })());
    if (stryMutAct_9fa48("6748") ? false : stryMutAct_9fa48("6747") ? true : (stryCov_9fa48("6747", "6748"), Array.isArray(value))) return stryMutAct_9fa48("6749") ? {} : (stryCov_9fa48("6749"), {
      kind: stryMutAct_9fa48("6750") ? "" : (stryCov_9fa48("6750"), "records"),
      records: value.map(stryMutAct_9fa48("6751") ? () => undefined : (stryCov_9fa48("6751"), v => isObject(v) ? v : stryMutAct_9fa48("6752") ? {} : (stryCov_9fa48("6752"), {
        value: v
      })))
    });
    if (stryMutAct_9fa48("6754") ? false : stryMutAct_9fa48("6753") ? true : (stryCov_9fa48("6753", "6754"), isObject(value))) return stryMutAct_9fa48("6755") ? {} : (stryCov_9fa48("6755"), {
      kind: stryMutAct_9fa48("6756") ? "" : (stryCov_9fa48("6756"), "object"),
      value
    });
    return stryMutAct_9fa48("6757") ? {} : (stryCov_9fa48("6757"), {
      kind: stryMutAct_9fa48("6758") ? "" : (stryCov_9fa48("6758"), "records"),
      records: (stryMutAct_9fa48("6761") ? value !== null : stryMutAct_9fa48("6760") ? false : stryMutAct_9fa48("6759") ? true : (stryCov_9fa48("6759", "6760", "6761"), value === null)) ? stryMutAct_9fa48("6762") ? ["Stryker was here"] : (stryCov_9fa48("6762"), []) : stryMutAct_9fa48("6763") ? [] : (stryCov_9fa48("6763"), [stryMutAct_9fa48("6764") ? {} : (stryCov_9fa48("6764"), {
        value
      })]),
      knownFields: stryMutAct_9fa48("6765") ? [] : (stryCov_9fa48("6765"), [stryMutAct_9fa48("6766") ? "" : (stryCov_9fa48("6766"), "value")])
    });
  }
}

/** Writes a complete result to a sink in the chosen format. */
export async function writeResult(result: CommandResult, sink: ChunkSink, options: RenderOptions): Promise<void> {
  if (stryMutAct_9fa48("6767")) {
    {}
  } else {
    stryCov_9fa48("6767");
    if (stryMutAct_9fa48("6770") ? result.kind !== "none" : stryMutAct_9fa48("6769") ? false : stryMutAct_9fa48("6768") ? true : (stryCov_9fa48("6768", "6769", "6770"), result.kind === (stryMutAct_9fa48("6771") ? "" : (stryCov_9fa48("6771"), "none")))) return;
    if (stryMutAct_9fa48("6774") ? result.kind !== "answer" : stryMutAct_9fa48("6773") ? false : stryMutAct_9fa48("6772") ? true : (stryCov_9fa48("6772", "6773", "6774"), result.kind === (stryMutAct_9fa48("6775") ? "" : (stryCov_9fa48("6775"), "answer")))) {
      if (stryMutAct_9fa48("6776")) {
        {}
      } else {
        stryCov_9fa48("6776");
        if (stryMutAct_9fa48("6779") ? options.format === "json" || !options.fields : stryMutAct_9fa48("6778") ? false : stryMutAct_9fa48("6777") ? true : (stryCov_9fa48("6777", "6778", "6779"), (stryMutAct_9fa48("6781") ? options.format !== "json" : stryMutAct_9fa48("6780") ? true : (stryCov_9fa48("6780", "6781"), options.format === (stryMutAct_9fa48("6782") ? "" : (stryCov_9fa48("6782"), "json")))) && (stryMutAct_9fa48("6783") ? options.fields : (stryCov_9fa48("6783"), !options.fields)))) {
          if (stryMutAct_9fa48("6784")) {
            {}
          } else {
            stryCov_9fa48("6784");
            const out = new BufferedChunkWriter(sink);
            await out.write(stryMutAct_9fa48("6785") ? `` : (stryCov_9fa48("6785"), `${jsonText(result.value, 2)}\n`));
            await out.flush();
            return;
          }
        }
        return writeResult(stryMutAct_9fa48("6786") ? {} : (stryCov_9fa48("6786"), {
          kind: stryMutAct_9fa48("6787") ? "" : (stryCov_9fa48("6787"), "records"),
          records: extractRecords(result.value)
        }), sink, options);
      }
    }
    const {
      format
    } = options;
    if (stryMutAct_9fa48("6790") ? format !== "text" : stryMutAct_9fa48("6789") ? false : stryMutAct_9fa48("6788") ? true : (stryCov_9fa48("6788", "6789", "6790"), format === (stryMutAct_9fa48("6791") ? "" : (stryCov_9fa48("6791"), "text")))) {
      if (stryMutAct_9fa48("6792")) {
        {}
      } else {
        stryCov_9fa48("6792");
        if (stryMutAct_9fa48("6795") ? result.kind === "object" || result.text !== undefined : stryMutAct_9fa48("6794") ? false : stryMutAct_9fa48("6793") ? true : (stryCov_9fa48("6793", "6794", "6795"), (stryMutAct_9fa48("6797") ? result.kind !== "object" : stryMutAct_9fa48("6796") ? true : (stryCov_9fa48("6796", "6797"), result.kind === (stryMutAct_9fa48("6798") ? "" : (stryCov_9fa48("6798"), "object")))) && (stryMutAct_9fa48("6800") ? result.text === undefined : stryMutAct_9fa48("6799") ? true : (stryCov_9fa48("6799", "6800"), result.text !== undefined)))) {
          if (stryMutAct_9fa48("6801")) {
            {}
          } else {
            stryCov_9fa48("6801");
            const out = new BufferedChunkWriter(sink);
            await out.write(stryMutAct_9fa48("6802") ? `` : (stryCov_9fa48("6802"), `${result.text}\n`));
            await out.flush();
            return;
          }
        }
        throw new UsageError(stryMutAct_9fa48("6803") ? "" : (stryCov_9fa48("6803"), "text prints a single value: `token`, `link`, `assign`, `config get` and `config path` offer it (and any command with --query)"), stryMutAct_9fa48("6804") ? {} : (stryCov_9fa48("6804"), {
          hint: stryMutAct_9fa48("6805") ? "" : (stryCov_9fa48("6805"), "use -o table, json, csv or ndjson")
        }));
      }
    }
    const records = (stryMutAct_9fa48("6808") ? result.kind !== "records" : stryMutAct_9fa48("6807") ? false : stryMutAct_9fa48("6806") ? true : (stryCov_9fa48("6806", "6807", "6808"), result.kind === (stryMutAct_9fa48("6809") ? "" : (stryCov_9fa48("6809"), "records")))) ? result.records : stryMutAct_9fa48("6810") ? [] : (stryCov_9fa48("6810"), [result.value]);
    const writer = createRecordWriter(sink, stryMutAct_9fa48("6811") ? {} : (stryCov_9fa48("6811"), {
      format,
      fields: options.fields,
      knownFields: (stryMutAct_9fa48("6814") ? result.kind !== "records" : stryMutAct_9fa48("6813") ? false : stryMutAct_9fa48("6812") ? true : (stryCov_9fa48("6812", "6813", "6814"), result.kind === (stryMutAct_9fa48("6815") ? "" : (stryCov_9fa48("6815"), "records")))) ? result.knownFields : undefined,
      bom: options.bom,
      delimiter: options.delimiter,
      color: options.color,
      width: options.width,
      // tableColumns are for people; csv is a machine format and keeps every field (as json).
      tableColumns: (stryMutAct_9fa48("6818") ? result.kind !== "records" : stryMutAct_9fa48("6817") ? false : stryMutAct_9fa48("6816") ? true : (stryCov_9fa48("6816", "6817", "6818"), result.kind === (stryMutAct_9fa48("6819") ? "" : (stryCov_9fa48("6819"), "records")))) ? result.tableColumns : undefined,
      flexColumn: (stryMutAct_9fa48("6822") ? result.kind !== "records" : stryMutAct_9fa48("6821") ? false : stryMutAct_9fa48("6820") ? true : (stryCov_9fa48("6820", "6821", "6822"), result.kind === (stryMutAct_9fa48("6823") ? "" : (stryCov_9fa48("6823"), "records")))) ? result.flexColumn : undefined,
      jsonIndent: stryMutAct_9fa48("6824") ? false : (stryCov_9fa48("6824"), true),
      single: stryMutAct_9fa48("6827") ? result.kind !== "object" : stryMutAct_9fa48("6826") ? false : stryMutAct_9fa48("6825") ? true : (stryCov_9fa48("6825", "6826", "6827"), result.kind === (stryMutAct_9fa48("6828") ? "" : (stryCov_9fa48("6828"), "object"))),
      sheetName: options.sheetName
    }));
    try {
      if (stryMutAct_9fa48("6829")) {
        {}
      } else {
        stryCov_9fa48("6829");
        await writer.writeBatch(records);
        await writer.end();
      }
    } catch (error) {
      if (stryMutAct_9fa48("6830")) {
        {}
      } else {
        stryCov_9fa48("6830");
        await writer.abort();
        throw error;
      }
    }
  }
}

/** A complete result as text (every format but xlsx, whose bytes are binary). */
export async function renderResult(result: CommandResult, options: RenderOptions): Promise<string> {
  if (stryMutAct_9fa48("6831")) {
    {}
  } else {
    stryCov_9fa48("6831");
    if (stryMutAct_9fa48("6834") ? options.format !== "xlsx" : stryMutAct_9fa48("6833") ? false : stryMutAct_9fa48("6832") ? true : (stryCov_9fa48("6832", "6833", "6834"), options.format === (stryMutAct_9fa48("6835") ? "" : (stryCov_9fa48("6835"), "xlsx")))) throw new TypeError(stryMutAct_9fa48("6836") ? "" : (stryCov_9fa48("6836"), "renderResult: xlsx is binary; use writeResult"));
    let text = stryMutAct_9fa48("6837") ? "Stryker was here!" : (stryCov_9fa48("6837"), "");
    await writeResult(result, stryMutAct_9fa48("6838") ? {} : (stryCov_9fa48("6838"), {
      toTerminal: stryMutAct_9fa48("6839") ? true : (stryCov_9fa48("6839"), false),
      write: async chunk => {
        if (stryMutAct_9fa48("6840")) {
          {}
        } else {
          stryCov_9fa48("6840");
          stryMutAct_9fa48("6841") ? text -= typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8") : (stryCov_9fa48("6841"), text += (stryMutAct_9fa48("6844") ? typeof chunk !== "string" : stryMutAct_9fa48("6843") ? false : stryMutAct_9fa48("6842") ? true : (stryCov_9fa48("6842", "6843", "6844"), typeof chunk === (stryMutAct_9fa48("6845") ? "" : (stryCov_9fa48("6845"), "string")))) ? chunk : Buffer.from(chunk).toString(stryMutAct_9fa48("6846") ? "" : (stryCov_9fa48("6846"), "utf8")));
        }
      }
    }), options);
    return text;
  }
}