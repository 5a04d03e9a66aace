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
import { BufferedChunkWriter } from "./chunk-writer.js";
import { FieldsGate, pickFields } from "./fields-check.js";
import { jsonChunks, jsonText } from "./json-text.js";
import type { JsonRecord } from "../domain/records.js";
import type { ChunkSink, RecordStreamOptions, RecordWriter } from "./record-types.js";

// json and ndjson (record-stream.ts): records leave as they arrive, nothing is collected.

export class JsonRecordWriter implements RecordWriter {
  count = 0;
  private readonly out: BufferedChunkWriter;
  private readonly gate: FieldsGate;
  private readonly ndjson: boolean;
  private ended = stryMutAct_9fa48("6366") ? true : (stryCov_9fa48("6366"), false);
  constructor(sink: ChunkSink, private readonly options: RecordStreamOptions) {
    if (stryMutAct_9fa48("6367")) {
      {}
    } else {
      stryCov_9fa48("6367");
      this.out = new BufferedChunkWriter(sink, options.signal);
      this.gate = new FieldsGate(options.fields, options.knownFields, stryMutAct_9fa48("6368") ? false : (stryCov_9fa48("6368"), true));
      this.ndjson = stryMutAct_9fa48("6371") ? options.format !== "ndjson" : stryMutAct_9fa48("6370") ? false : stryMutAct_9fa48("6369") ? true : (stryCov_9fa48("6369", "6370", "6371"), options.format === (stryMutAct_9fa48("6372") ? "" : (stryCov_9fa48("6372"), "ndjson")));
    }
  }
  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    if (stryMutAct_9fa48("6373")) {
      {}
    } else {
      stryCov_9fa48("6373");
      this.gate.check(records);
      const {
        fields,
        jsonIndent,
        single
      } = this.options;
      const depth = fields ? 0 : stryMutAct_9fa48("6374") ? this.options.jsonSplitDepth && 0 : (stryCov_9fa48("6374"), this.options.jsonSplitDepth ?? 0);
      const pretty = stryMutAct_9fa48("6377") ? jsonIndent === true || !this.ndjson : stryMutAct_9fa48("6376") ? false : stryMutAct_9fa48("6375") ? true : (stryCov_9fa48("6375", "6376", "6377"), (stryMutAct_9fa48("6379") ? jsonIndent !== true : stryMutAct_9fa48("6378") ? true : (stryCov_9fa48("6378", "6379"), jsonIndent === (stryMutAct_9fa48("6380") ? false : (stryCov_9fa48("6380"), true)))) && (stryMutAct_9fa48("6381") ? this.ndjson : (stryCov_9fa48("6381"), !this.ndjson)));
      const bare = stryMutAct_9fa48("6384") ? single === true || !this.ndjson : stryMutAct_9fa48("6383") ? false : stryMutAct_9fa48("6382") ? true : (stryCov_9fa48("6382", "6383", "6384"), (stryMutAct_9fa48("6386") ? single !== true : stryMutAct_9fa48("6385") ? true : (stryCov_9fa48("6385", "6386"), single === (stryMutAct_9fa48("6387") ? false : (stryCov_9fa48("6387"), true)))) && (stryMutAct_9fa48("6388") ? this.ndjson : (stryCov_9fa48("6388"), !this.ndjson)));
      for (const record of records) {
        if (stryMutAct_9fa48("6389")) {
          {}
        } else {
          stryCov_9fa48("6389");
          if (stryMutAct_9fa48("6392") ? !this.ndjson || !bare : stryMutAct_9fa48("6391") ? false : stryMutAct_9fa48("6390") ? true : (stryCov_9fa48("6390", "6391", "6392"), (stryMutAct_9fa48("6393") ? this.ndjson : (stryCov_9fa48("6393"), !this.ndjson)) && (stryMutAct_9fa48("6394") ? bare : (stryCov_9fa48("6394"), !bare)))) await this.out.write((stryMutAct_9fa48("6397") ? this.count !== 0 : stryMutAct_9fa48("6396") ? false : stryMutAct_9fa48("6395") ? true : (stryCov_9fa48("6395", "6396", "6397"), this.count === 0)) ? stryMutAct_9fa48("6398") ? "" : (stryCov_9fa48("6398"), "[\n") : stryMutAct_9fa48("6399") ? "" : (stryCov_9fa48("6399"), ",\n"));
          const value = fields ? pickFields(record, fields) : record;
          if (stryMutAct_9fa48("6401") ? false : stryMutAct_9fa48("6400") ? true : (stryCov_9fa48("6400", "6401"), pretty)) {
            if (stryMutAct_9fa48("6402")) {
              {}
            } else {
              stryCov_9fa48("6402");
              // As JSON.stringify(list, null, 2) would indent it: the record one level in.
              const text = jsonText(value, 2);
              await this.out.write(bare ? text : stryMutAct_9fa48("6403") ? `` : (stryCov_9fa48("6403"), `  ${text.replace(/\n/g, stryMutAct_9fa48("6404") ? "" : (stryCov_9fa48("6404"), "\n  "))}`));
            }
          } else if (stryMutAct_9fa48("6408") ? depth <= 0 : stryMutAct_9fa48("6407") ? depth >= 0 : stryMutAct_9fa48("6406") ? false : stryMutAct_9fa48("6405") ? true : (stryCov_9fa48("6405", "6406", "6407", "6408"), depth > 0)) {
            if (stryMutAct_9fa48("6409")) {
              {}
            } else {
              stryCov_9fa48("6409");
              for (const chunk of jsonChunks(record, depth)) await this.out.write(chunk);
            }
          } else {
            if (stryMutAct_9fa48("6410")) {
              {}
            } else {
              stryCov_9fa48("6410");
              await this.out.write(jsonText(value));
            }
          }
          if (stryMutAct_9fa48("6412") ? false : stryMutAct_9fa48("6411") ? true : (stryCov_9fa48("6411", "6412"), this.ndjson)) await this.out.write(stryMutAct_9fa48("6413") ? "" : (stryCov_9fa48("6413"), "\n"));
          stryMutAct_9fa48("6414") ? this.count-- : (stryCov_9fa48("6414"), this.count++);
        }
      }
    }
  }
  async end(): Promise<void> {
    if (stryMutAct_9fa48("6415")) {
      {}
    } else {
      stryCov_9fa48("6415");
      if (stryMutAct_9fa48("6417") ? false : stryMutAct_9fa48("6416") ? true : (stryCov_9fa48("6416", "6417"), this.ended)) return;
      this.ended = stryMutAct_9fa48("6418") ? false : (stryCov_9fa48("6418"), true);
      this.gate.finish();
      const trailer = stryMutAct_9fa48("6419") ? this.options.jsonTrailer && "\n" : (stryCov_9fa48("6419"), this.options.jsonTrailer ?? (stryMutAct_9fa48("6420") ? "" : (stryCov_9fa48("6420"), "\n")));
      if (stryMutAct_9fa48("6423") ? this.options.single === true || !this.ndjson : stryMutAct_9fa48("6422") ? false : stryMutAct_9fa48("6421") ? true : (stryCov_9fa48("6421", "6422", "6423"), (stryMutAct_9fa48("6425") ? this.options.single !== true : stryMutAct_9fa48("6424") ? true : (stryCov_9fa48("6424", "6425"), this.options.single === (stryMutAct_9fa48("6426") ? false : (stryCov_9fa48("6426"), true)))) && (stryMutAct_9fa48("6427") ? this.ndjson : (stryCov_9fa48("6427"), !this.ndjson)))) {
        if (stryMutAct_9fa48("6428")) {
          {}
        } else {
          stryCov_9fa48("6428");
          await this.out.write((stryMutAct_9fa48("6431") ? this.count !== 0 : stryMutAct_9fa48("6430") ? false : stryMutAct_9fa48("6429") ? true : (stryCov_9fa48("6429", "6430", "6431"), this.count === 0)) ? stryMutAct_9fa48("6432") ? `` : (stryCov_9fa48("6432"), `null${trailer}`) : trailer);
        }
      } else if (stryMutAct_9fa48("6435") ? false : stryMutAct_9fa48("6434") ? true : stryMutAct_9fa48("6433") ? this.ndjson : (stryCov_9fa48("6433", "6434", "6435"), !this.ndjson)) {
        if (stryMutAct_9fa48("6436")) {
          {}
        } else {
          stryCov_9fa48("6436");
          await this.out.write(stryMutAct_9fa48("6437") ? `` : (stryCov_9fa48("6437"), `${(stryMutAct_9fa48("6440") ? this.count !== 0 : stryMutAct_9fa48("6439") ? false : stryMutAct_9fa48("6438") ? true : (stryCov_9fa48("6438", "6439", "6440"), this.count === 0)) ? stryMutAct_9fa48("6441") ? "" : (stryCov_9fa48("6441"), "[]") : stryMutAct_9fa48("6442") ? "" : (stryCov_9fa48("6442"), "\n]")}${trailer}`));
        }
      }
      await this.out.flush();
    }
  }
  async abort(): Promise<void> {
    if (stryMutAct_9fa48("6443")) {
      {}
    } else {
      stryCov_9fa48("6443");
      this.ended = stryMutAct_9fa48("6444") ? false : (stryCov_9fa48("6444"), true);
    }
  }
}