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
import { flattenRecord, type Cell, type JsonRecord } from "../domain/records.js";
import { FieldsGate } from "./fields-check.js";
import type { ChunkSink, RecordStreamOptions, RecordWriter } from "./record-types.js";
import { renderTable } from "./table.js";
import { cellText, chooseTableColumns } from "./table-columns.js";
import { keyValueText } from "./table-text.js";

// table (record-stream.ts): collected — a table is for a terminal, where a few thousand
// rows is already a lot — then drawn once, with the columns chosen from the records when
// the command names none (table-columns.ts).

export class TableRecordWriter implements RecordWriter {
  count = 0;
  private readonly rows: Record<string, Cell>[] = stryMutAct_9fa48("7136") ? ["Stryker was here"] : (stryCov_9fa48("7136"), []);
  private readonly columns: string[] = stryMutAct_9fa48("7137") ? ["Stryker was here"] : (stryCov_9fa48("7137"), []);
  private readonly seen = new Set<string>();
  private readonly gate: FieldsGate;
  private ended = stryMutAct_9fa48("7138") ? true : (stryCov_9fa48("7138"), false);
  constructor(private readonly sink: ChunkSink, private readonly options: RecordStreamOptions) {
    if (stryMutAct_9fa48("7139")) {
      {}
    } else {
      stryCov_9fa48("7139");
      this.gate = new FieldsGate(options.fields, options.knownFields, stryMutAct_9fa48("7140") ? true : (stryCov_9fa48("7140"), false));
    }
  }
  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    if (stryMutAct_9fa48("7141")) {
      {}
    } else {
      stryCov_9fa48("7141");
      this.gate.check(records);
      for (const record of records) {
        if (stryMutAct_9fa48("7142")) {
          {}
        } else {
          stryCov_9fa48("7142");
          // Tables show a list of values as `a, b` (CSV: `a;b`).
          const flat = flattenRecord(record, stryMutAct_9fa48("7143") ? "Stryker was here!" : (stryCov_9fa48("7143"), ""), {}, stryMutAct_9fa48("7144") ? "" : (stryCov_9fa48("7144"), ", "));
          for (const key of Object.keys(flat)) {
            if (stryMutAct_9fa48("7145")) {
              {}
            } else {
              stryCov_9fa48("7145");
              if (stryMutAct_9fa48("7148") ? false : stryMutAct_9fa48("7147") ? true : stryMutAct_9fa48("7146") ? this.seen.has(key) : (stryCov_9fa48("7146", "7147", "7148"), !this.seen.has(key))) {
                if (stryMutAct_9fa48("7149")) {
                  {}
                } else {
                  stryCov_9fa48("7149");
                  this.seen.add(key);
                  this.columns.push(key);
                }
              }
            }
          }
          this.rows.push(flat);
          stryMutAct_9fa48("7150") ? this.count-- : (stryCov_9fa48("7150"), this.count++);
        }
      }
    }
  }
  async end(): Promise<void> {
    if (stryMutAct_9fa48("7151")) {
      {}
    } else {
      stryCov_9fa48("7151");
      if (stryMutAct_9fa48("7153") ? false : stryMutAct_9fa48("7152") ? true : (stryCov_9fa48("7152", "7153"), this.ended)) return;
      this.ended = stryMutAct_9fa48("7154") ? false : (stryCov_9fa48("7154"), true);
      this.gate.finish();
      const {
        fields,
        tableColumns,
        single
      } = this.options;
      let text: string;
      if (stryMutAct_9fa48("7157") ? single === true || !fields : stryMutAct_9fa48("7156") ? false : stryMutAct_9fa48("7155") ? true : (stryCov_9fa48("7155", "7156", "7157"), (stryMutAct_9fa48("7159") ? single !== true : stryMutAct_9fa48("7158") ? true : (stryCov_9fa48("7158", "7159"), single === (stryMutAct_9fa48("7160") ? false : (stryCov_9fa48("7160"), true)))) && (stryMutAct_9fa48("7161") ? fields : (stryCov_9fa48("7161"), !fields)))) {
        if (stryMutAct_9fa48("7162")) {
          {}
        } else {
          stryCov_9fa48("7162");
          // One object prints as `key: value` lines at full length (as gh prints one item): what
          // `link` and `token` exist to give must survive a copy from the terminal (issue 15 item 1).
          const row = stryMutAct_9fa48("7163") ? this.rows[0] && {} : (stryCov_9fa48("7163"), this.rows[0] ?? {});
          text = keyValueText(this.columns.map(stryMutAct_9fa48("7164") ? () => undefined : (stryCov_9fa48("7164"), c => [c, cellText(row[c])] as const)), this.options.color);
        }
      } else {
        if (stryMutAct_9fa48("7165")) {
          {}
        } else {
          stryCov_9fa48("7165");
          let chosen = stryMutAct_9fa48("7166") ? (fields ?? tableColumns?.filter(c => this.seen.has(c) || this.count === 0)) && this.columns : (stryCov_9fa48("7166"), (stryMutAct_9fa48("7167") ? fields && tableColumns?.filter(c => this.seen.has(c) || this.count === 0) : (stryCov_9fa48("7167"), fields ?? (stryMutAct_9fa48("7169") ? tableColumns.filter(c => this.seen.has(c) || this.count === 0) : stryMutAct_9fa48("7168") ? tableColumns : (stryCov_9fa48("7168", "7169"), tableColumns?.filter(stryMutAct_9fa48("7170") ? () => undefined : (stryCov_9fa48("7170"), c => stryMutAct_9fa48("7173") ? this.seen.has(c) && this.count === 0 : stryMutAct_9fa48("7172") ? false : stryMutAct_9fa48("7171") ? true : (stryCov_9fa48("7171", "7172", "7173"), this.seen.has(c) || (stryMutAct_9fa48("7175") ? this.count !== 0 : stryMutAct_9fa48("7174") ? false : (stryCov_9fa48("7174", "7175"), this.count === 0))))))))) ?? this.columns);
          if (stryMutAct_9fa48("7178") ? chosen.length !== 0 : stryMutAct_9fa48("7177") ? false : stryMutAct_9fa48("7176") ? true : (stryCov_9fa48("7176", "7177", "7178"), chosen.length === 0)) chosen = this.columns;
          const {
            onColumnsHidden
          } = this.options;
          // Records of unknown shape (reports): the columns that fit, chosen from the records.
          if (stryMutAct_9fa48("7181") ? !fields && !tableColumns && onColumnsHidden || this.rows.length > 0 : stryMutAct_9fa48("7180") ? false : stryMutAct_9fa48("7179") ? true : (stryCov_9fa48("7179", "7180", "7181"), (stryMutAct_9fa48("7183") ? !fields && !tableColumns || onColumnsHidden : stryMutAct_9fa48("7182") ? true : (stryCov_9fa48("7182", "7183"), (stryMutAct_9fa48("7185") ? !fields || !tableColumns : stryMutAct_9fa48("7184") ? true : (stryCov_9fa48("7184", "7185"), (stryMutAct_9fa48("7186") ? fields : (stryCov_9fa48("7186"), !fields)) && (stryMutAct_9fa48("7187") ? tableColumns : (stryCov_9fa48("7187"), !tableColumns)))) && onColumnsHidden)) && (stryMutAct_9fa48("7190") ? this.rows.length <= 0 : stryMutAct_9fa48("7189") ? this.rows.length >= 0 : stryMutAct_9fa48("7188") ? true : (stryCov_9fa48("7188", "7189", "7190"), this.rows.length > 0)))) {
            if (stryMutAct_9fa48("7191")) {
              {}
            } else {
              stryCov_9fa48("7191");
              const choice = chooseTableColumns(this.columns, this.rows, stryMutAct_9fa48("7192") ? this.options.width && 120 : (stryCov_9fa48("7192"), this.options.width ?? 120));
              chosen = choice.shown;
              if (stryMutAct_9fa48("7196") ? choice.hidden.length <= 0 : stryMutAct_9fa48("7195") ? choice.hidden.length >= 0 : stryMutAct_9fa48("7194") ? false : stryMutAct_9fa48("7193") ? true : (stryCov_9fa48("7193", "7194", "7195", "7196"), choice.hidden.length > 0)) onColumnsHidden(choice);
            }
          }
          text = await renderTable(chosen, this.rows, this.options);
        }
      }
      this.rows.length = 0;
      // renderTable escapes every cell itself (and may add colour codes of our own), so the
      // text goes to the sink as it is.
      await this.sink.write(text);
    }
  }
  async abort(): Promise<void> {
    if (stryMutAct_9fa48("7197")) {
      {}
    } else {
      stryCov_9fa48("7197");
      this.ended = stryMutAct_9fa48("7198") ? false : (stryCov_9fa48("7198"), true);
      this.rows.length = 0;
    }
  }
}