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
import type { Cell } from "../domain/records.js";

// Which columns a terminal table shows when --fields is not given, chosen from the records
// themselves (docs/cli-contract.md, "Records of unknown shape"; issue 21 item 1): the spec
// marks report fields "not shown", so no list of a kind's columns may decide it. Each
// column is ranked by what its values look like — a date, a name or title, then numbers,
// then short words, before ids and long text — and as many as fit the width are shown, in
// that order. The rest are one `--fields` or `-o csv` away (tableHint).

/** What a column looks like, most telling first: the value is the rank. */
const Rank = {
  Date: 0,
  Label: 1,
  Number: 2,
  Short: 3,
  Id: 4,
  Long: 5,
  Empty: 6
} as const;
type Rank = (typeof Rank)[keyof typeof Rank];
const ISO_DATE = stryMutAct_9fa48("6855") ? /^\d{4}-\d{2}-\d{2}(?:$|[^T ])/ : stryMutAct_9fa48("6854") ? /^\d{4}-\d{2}-\d{2}(?:[T ])/ : stryMutAct_9fa48("6853") ? /^\d{4}-\d{2}-\D{2}(?:$|[T ])/ : stryMutAct_9fa48("6852") ? /^\d{4}-\d{2}-\d(?:$|[T ])/ : stryMutAct_9fa48("6851") ? /^\d{4}-\D{2}-\d{2}(?:$|[T ])/ : stryMutAct_9fa48("6850") ? /^\d{4}-\d-\d{2}(?:$|[T ])/ : stryMutAct_9fa48("6849") ? /^\D{4}-\d{2}-\d{2}(?:$|[T ])/ : stryMutAct_9fa48("6848") ? /^\d-\d{2}-\d{2}(?:$|[T ])/ : stryMutAct_9fa48("6847") ? /\d{4}-\d{2}-\d{2}(?:$|[T ])/ : (stryCov_9fa48("6847", "6848", "6849", "6850", "6851", "6852", "6853", "6854", "6855"), /^\d{4}-\d{2}-\d{2}(?:$|[T ])/);
/** The last part of a dotted name: `user.displayName` → `displayName`. */
const lastPart = stryMutAct_9fa48("6856") ? () => undefined : (stryCov_9fa48("6856"), (() => {
  const lastPart = (column: string): string => stryMutAct_9fa48("6857") ? column : (stryCov_9fa48("6857"), column.slice(stryMutAct_9fa48("6858") ? column.lastIndexOf(".") - 1 : (stryCov_9fa48("6858"), column.lastIndexOf(stryMutAct_9fa48("6859") ? "" : (stryCov_9fa48("6859"), ".")) + 1)));
  return lastPart;
})());
/** `name`, `title`, `userName`, `display_name`, `label`. */
const LABEL_NAME = stryMutAct_9fa48("6863") ? /(?:^|[a-z_-])(?:name|title|label)$|(?:name|title|label)/i : stryMutAct_9fa48("6862") ? /(?:^|[^a-z_-])(?:name|title|label)$|^(?:name|title|label)/i : stryMutAct_9fa48("6861") ? /(?:[a-z_-])(?:name|title|label)$|^(?:name|title|label)/i : stryMutAct_9fa48("6860") ? /(?:^|[a-z_-])(?:name|title|label)|^(?:name|title|label)/i : (stryCov_9fa48("6860", "6861", "6862", "6863"), /(?:^|[a-z_-])(?:name|title|label)$|^(?:name|title|label)/i);
/** `id`, `userId`, `user_id`, `ID`, `uuid`, `guid`, `key` — what identifies a row, not what describes it. */
const ID_NAME = stryMutAct_9fa48("6873") ? /(?:^|[._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)$|[^a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6872") ? /(?:^|[._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)/ : stryMutAct_9fa48("6871") ? /(?:^|[._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6870") ? /(?:^|[._-])id$|[a-z]Id$|ID$|(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6869") ? /(?:^|[._-])id$|[a-z]Id$|ID|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6868") ? /(?:^|[._-])id$|[^a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6867") ? /(?:^|[._-])id$|[a-z]Id|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6866") ? /(?:^|[^._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6865") ? /(?:[._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : stryMutAct_9fa48("6864") ? /(?:^|[._-])id|[a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/ : (stryCov_9fa48("6864", "6865", "6866", "6867", "6868", "6869", "6870", "6871", "6872", "6873"), /(?:^|[._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/);
/** A value shaped like an identifier: a UUID, or hex of 16 digits or more. */
const ID_VALUE = stryMutAct_9fa48("6887") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[^0-9a-f]{16,})$/i : stryMutAct_9fa48("6886") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f])$/i : stryMutAct_9fa48("6885") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[^0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6884") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6883") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[^0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6882") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6881") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[^0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6880") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6879") ? /^(?:[0-9a-f]{8}-[^0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6878") ? /^(?:[0-9a-f]{8}-[0-9a-f]-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6877") ? /^(?:[^0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6876") ? /^(?:[0-9a-f]-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : stryMutAct_9fa48("6875") ? /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})/i : stryMutAct_9fa48("6874") ? /(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i : (stryCov_9fa48("6874", "6875", "6876", "6877", "6878", "6879", "6880", "6881", "6882", "6883", "6884", "6885", "6886", "6887"), /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i);
/** Text longer than this is read, not scanned: it goes last (a note, a description). */
const LONG_TEXT = 32;

/** A cell as a table shows it: empty for null. */
export function cellText(value: Cell | undefined): string {
  if (stryMutAct_9fa48("6888")) {
    {}
  } else {
    stryCov_9fa48("6888");
    return (stryMutAct_9fa48("6891") ? value === null && value === undefined : stryMutAct_9fa48("6890") ? false : stryMutAct_9fa48("6889") ? true : (stryCov_9fa48("6889", "6890", "6891"), (stryMutAct_9fa48("6893") ? value !== null : stryMutAct_9fa48("6892") ? false : (stryCov_9fa48("6892", "6893"), value === null)) || (stryMutAct_9fa48("6895") ? value !== undefined : stryMutAct_9fa48("6894") ? false : (stryCov_9fa48("6894", "6895"), value === undefined)))) ? stryMutAct_9fa48("6896") ? "Stryker was here!" : (stryCov_9fa48("6896"), "") : String(value);
  }
}
function rankOf(column: string, values: readonly (Cell | undefined)[]): Rank {
  if (stryMutAct_9fa48("6897")) {
    {}
  } else {
    stryCov_9fa48("6897");
    const present = stryMutAct_9fa48("6898") ? values : (stryCov_9fa48("6898"), values.filter(stryMutAct_9fa48("6899") ? () => undefined : (stryCov_9fa48("6899"), v => stryMutAct_9fa48("6902") ? v !== null && v !== undefined || v !== "" : stryMutAct_9fa48("6901") ? false : stryMutAct_9fa48("6900") ? true : (stryCov_9fa48("6900", "6901", "6902"), (stryMutAct_9fa48("6904") ? v !== null || v !== undefined : stryMutAct_9fa48("6903") ? true : (stryCov_9fa48("6903", "6904"), (stryMutAct_9fa48("6906") ? v === null : stryMutAct_9fa48("6905") ? true : (stryCov_9fa48("6905", "6906"), v !== null)) && (stryMutAct_9fa48("6908") ? v === undefined : stryMutAct_9fa48("6907") ? true : (stryCov_9fa48("6907", "6908"), v !== undefined)))) && (stryMutAct_9fa48("6910") ? v === "" : stryMutAct_9fa48("6909") ? true : (stryCov_9fa48("6909", "6910"), v !== (stryMutAct_9fa48("6911") ? "Stryker was here!" : (stryCov_9fa48("6911"), ""))))))));
    if (stryMutAct_9fa48("6914") ? present.length !== 0 : stryMutAct_9fa48("6913") ? false : stryMutAct_9fa48("6912") ? true : (stryCov_9fa48("6912", "6913", "6914"), present.length === 0)) return Rank.Empty;
    const name = lastPart(column);
    const strings = stryMutAct_9fa48("6915") ? present : (stryCov_9fa48("6915"), present.filter(stryMutAct_9fa48("6916") ? () => undefined : (stryCov_9fa48("6916"), (v): v is string => stryMutAct_9fa48("6919") ? typeof v !== "string" : stryMutAct_9fa48("6918") ? false : stryMutAct_9fa48("6917") ? true : (stryCov_9fa48("6917", "6918", "6919"), typeof v === (stryMutAct_9fa48("6920") ? "" : (stryCov_9fa48("6920"), "string"))))));
    if (stryMutAct_9fa48("6923") ? strings.length === present.length || strings.every(v => ISO_DATE.test(v)) : stryMutAct_9fa48("6922") ? false : stryMutAct_9fa48("6921") ? true : (stryCov_9fa48("6921", "6922", "6923"), (stryMutAct_9fa48("6925") ? strings.length !== present.length : stryMutAct_9fa48("6924") ? true : (stryCov_9fa48("6924", "6925"), strings.length === present.length)) && (stryMutAct_9fa48("6926") ? strings.some(v => ISO_DATE.test(v)) : (stryCov_9fa48("6926"), strings.every(stryMutAct_9fa48("6927") ? () => undefined : (stryCov_9fa48("6927"), v => ISO_DATE.test(v))))))) return Rank.Date;
    if (stryMutAct_9fa48("6930") ? present.some(v => typeof v === "number") : stryMutAct_9fa48("6929") ? false : stryMutAct_9fa48("6928") ? true : (stryCov_9fa48("6928", "6929", "6930"), present.every(stryMutAct_9fa48("6931") ? () => undefined : (stryCov_9fa48("6931"), v => stryMutAct_9fa48("6934") ? typeof v !== "number" : stryMutAct_9fa48("6933") ? false : stryMutAct_9fa48("6932") ? true : (stryCov_9fa48("6932", "6933", "6934"), typeof v === (stryMutAct_9fa48("6935") ? "" : (stryCov_9fa48("6935"), "number"))))))) return ID_NAME.test(name) ? Rank.Id : Rank.Number;
    if (stryMutAct_9fa48("6938") ? ID_NAME.test(name) && strings.length > 0 && strings.every(v => ID_VALUE.test(v)) : stryMutAct_9fa48("6937") ? false : stryMutAct_9fa48("6936") ? true : (stryCov_9fa48("6936", "6937", "6938"), ID_NAME.test(name) || (stryMutAct_9fa48("6940") ? strings.length > 0 || strings.every(v => ID_VALUE.test(v)) : stryMutAct_9fa48("6939") ? false : (stryCov_9fa48("6939", "6940"), (stryMutAct_9fa48("6943") ? strings.length <= 0 : stryMutAct_9fa48("6942") ? strings.length >= 0 : stryMutAct_9fa48("6941") ? true : (stryCov_9fa48("6941", "6942", "6943"), strings.length > 0)) && (stryMutAct_9fa48("6944") ? strings.some(v => ID_VALUE.test(v)) : (stryCov_9fa48("6944"), strings.every(stryMutAct_9fa48("6945") ? () => undefined : (stryCov_9fa48("6945"), v => ID_VALUE.test(v))))))))) return Rank.Id;
    const widest = present.reduce<number>(stryMutAct_9fa48("6946") ? () => undefined : (stryCov_9fa48("6946"), (w, v) => stryMutAct_9fa48("6947") ? Math.min(w, cellText(v).length) : (stryCov_9fa48("6947"), Math.max(w, cellText(v).length))), 0);
    if (stryMutAct_9fa48("6951") ? widest <= LONG_TEXT : stryMutAct_9fa48("6950") ? widest >= LONG_TEXT : stryMutAct_9fa48("6949") ? false : stryMutAct_9fa48("6948") ? true : (stryCov_9fa48("6948", "6949", "6950", "6951"), widest > LONG_TEXT)) return Rank.Long;
    if (stryMutAct_9fa48("6954") ? LABEL_NAME.test(name) || strings.length === present.length : stryMutAct_9fa48("6953") ? false : stryMutAct_9fa48("6952") ? true : (stryCov_9fa48("6952", "6953", "6954"), LABEL_NAME.test(name) && (stryMutAct_9fa48("6956") ? strings.length !== present.length : stryMutAct_9fa48("6955") ? true : (stryCov_9fa48("6955", "6956"), strings.length === present.length)))) return Rank.Label;
    return Rank.Short;
  }
}

/**
 * The columns in the order a table should offer them: the first date, the first name or
 * title, the numbers, short words (other dates and names among them), ids, long text,
 * empty columns; first-seen order within each.
 */
export function rankColumns(columns: readonly string[], rows: readonly Record<string, Cell>[]): string[] {
  if (stryMutAct_9fa48("6957")) {
    {}
  } else {
    stryCov_9fa48("6957");
    const ranked = columns.map(stryMutAct_9fa48("6958") ? () => undefined : (stryCov_9fa48("6958"), (column, index) => stryMutAct_9fa48("6959") ? {} : (stryCov_9fa48("6959"), {
      column,
      index,
      rank: rankOf(column, rows.map(stryMutAct_9fa48("6960") ? () => undefined : (stryCov_9fa48("6960"), row => row[column])))
    })));
    // Only one date and one label lead; the others are ordinary short columns.
    for (const lead of stryMutAct_9fa48("6961") ? [] : (stryCov_9fa48("6961"), [Rank.Date, Rank.Label])) {
      if (stryMutAct_9fa48("6962")) {
        {}
      } else {
        stryCov_9fa48("6962");
        for (const entry of stryMutAct_9fa48("6964") ? ranked.slice(1) : stryMutAct_9fa48("6963") ? ranked.filter(e => e.rank === lead) : (stryCov_9fa48("6963", "6964"), ranked.filter(stryMutAct_9fa48("6965") ? () => undefined : (stryCov_9fa48("6965"), e => stryMutAct_9fa48("6968") ? e.rank !== lead : stryMutAct_9fa48("6967") ? false : stryMutAct_9fa48("6966") ? true : (stryCov_9fa48("6966", "6967", "6968"), e.rank === lead))).slice(1))) entry.rank = Rank.Short;
      }
    }
    return stryMutAct_9fa48("6969") ? ranked.map(e => e.column) : (stryCov_9fa48("6969"), ranked.sort(stryMutAct_9fa48("6970") ? () => undefined : (stryCov_9fa48("6970"), (a, b) => stryMutAct_9fa48("6973") ? a.rank - b.rank && a.index - b.index : stryMutAct_9fa48("6972") ? false : stryMutAct_9fa48("6971") ? true : (stryCov_9fa48("6971", "6972", "6973"), (stryMutAct_9fa48("6974") ? a.rank + b.rank : (stryCov_9fa48("6974"), a.rank - b.rank)) || (stryMutAct_9fa48("6975") ? a.index + b.index : (stryCov_9fa48("6975"), a.index - b.index))))).map(stryMutAct_9fa48("6976") ? () => undefined : (stryCov_9fa48("6976"), e => e.column)));
  }
}
export interface TableColumns {
  /** Shown, in this order. */
  shown: string[];
  /** Left out, most telling first (the first is the one a hint suggests adding). */
  hidden: string[];
}

/**
 * As many of the ranked columns as fit `width` with their natural width (header or widest
 * cell, plus 3 for border and padding); a column that does not fit is skipped for a
 * narrower one after it. At least one is shown (its cells wrap).
 */
export function chooseTableColumns(columns: readonly string[], rows: readonly Record<string, Cell>[], width: number): TableColumns {
  if (stryMutAct_9fa48("6977")) {
    {}
  } else {
    stryCov_9fa48("6977");
    const shown: string[] = stryMutAct_9fa48("6978") ? ["Stryker was here"] : (stryCov_9fa48("6978"), []);
    let used = 1;
    const ranked = rankColumns(columns, rows);
    for (const column of ranked) {
      if (stryMutAct_9fa48("6979")) {
        {}
      } else {
        stryCov_9fa48("6979");
        const natural = rows.reduce(stryMutAct_9fa48("6980") ? () => undefined : (stryCov_9fa48("6980"), (widest, row) => stryMutAct_9fa48("6981") ? Math.min(widest, cellText(row[column]).length) : (stryCov_9fa48("6981"), Math.max(widest, cellText(row[column]).length))), column.length);
        if (stryMutAct_9fa48("6984") ? shown.length > 0 || used + natural + 3 > width : stryMutAct_9fa48("6983") ? false : stryMutAct_9fa48("6982") ? true : (stryCov_9fa48("6982", "6983", "6984"), (stryMutAct_9fa48("6987") ? shown.length <= 0 : stryMutAct_9fa48("6986") ? shown.length >= 0 : stryMutAct_9fa48("6985") ? true : (stryCov_9fa48("6985", "6986", "6987"), shown.length > 0)) && (stryMutAct_9fa48("6990") ? used + natural + 3 <= width : stryMutAct_9fa48("6989") ? used + natural + 3 >= width : stryMutAct_9fa48("6988") ? true : (stryCov_9fa48("6988", "6989", "6990"), (stryMutAct_9fa48("6991") ? used + natural - 3 : (stryCov_9fa48("6991"), (stryMutAct_9fa48("6992") ? used - natural : (stryCov_9fa48("6992"), used + natural)) + 3)) > width)))) continue;
        shown.push(column);
        stryMutAct_9fa48("6993") ? used -= natural + 3 : (stryCov_9fa48("6993"), used += stryMutAct_9fa48("6994") ? natural - 3 : (stryCov_9fa48("6994"), natural + 3));
      }
    }
    return stryMutAct_9fa48("6995") ? {} : (stryCov_9fa48("6995"), {
      shown,
      hidden: stryMutAct_9fa48("6996") ? ranked : (stryCov_9fa48("6996"), ranked.filter(stryMutAct_9fa48("6997") ? () => undefined : (stryCov_9fa48("6997"), column => stryMutAct_9fa48("6998") ? shown.includes(column) : (stryCov_9fa48("6998"), !shown.includes(column)))))
    });
  }
}

/** A --fields value the shell passes as it is; anything else goes in single quotes. */
function shellWord(text: string): string {
  if (stryMutAct_9fa48("6999")) {
    {}
  } else {
    stryCov_9fa48("6999");
    return (stryMutAct_9fa48("7004") ? /^[\W.,@%+=:/-]+$/ : stryMutAct_9fa48("7003") ? /^[^\w.,@%+=:/-]+$/ : stryMutAct_9fa48("7002") ? /^[\w.,@%+=:/-]$/ : stryMutAct_9fa48("7001") ? /^[\w.,@%+=:/-]+/ : stryMutAct_9fa48("7000") ? /[\w.,@%+=:/-]+$/ : (stryCov_9fa48("7000", "7001", "7002", "7003", "7004"), /^[\w.,@%+=:/-]+$/)).test(text) ? text : stryMutAct_9fa48("7005") ? `` : (stryCov_9fa48("7005"), `'${text.replaceAll(stryMutAct_9fa48("7006") ? "" : (stryCov_9fa48("7006"), "'"), stryMutAct_9fa48("7007") ? `` : (stryCov_9fa48("7007"), `'\\''`))}'`);
  }
}

/**
 * The one hint line under a table that left columns out. Every command it suggests works
 * as written: `--fields` names columns the records have (quoted for the shell when needed,
 * and only when no name holds a comma, which --fields could not express), `-o csv` and
 * `-o json` keep every column.
 */
export function tableHint(subject: string, choice: TableColumns, width: number | undefined): string {
  if (stryMutAct_9fa48("7008")) {
    {}
  } else {
    stryCov_9fa48("7008");
    const {
      shown,
      hidden
    } = choice;
    const total = stryMutAct_9fa48("7009") ? shown.length - hidden.length : (stryCov_9fa48("7009"), shown.length + hidden.length);
    const fit = (stryMutAct_9fa48("7012") ? width !== undefined : stryMutAct_9fa48("7011") ? false : stryMutAct_9fa48("7010") ? true : (stryCov_9fa48("7010", "7011", "7012"), width === undefined)) ? stryMutAct_9fa48("7013") ? "Stryker was here!" : (stryCov_9fa48("7013"), "") : stryMutAct_9fa48("7014") ? `` : (stryCov_9fa48("7014"), ` to fit ${width} columns`);
    const head = stryMutAct_9fa48("7015") ? `` : (stryCov_9fa48("7015"), `${subject}: ${shown.length} of ${total} columns shown${fit}; left out: ${hidden.join(stryMutAct_9fa48("7016") ? "" : (stryCov_9fa48("7016"), ", "))}`);
    const wanted = stryMutAct_9fa48("7017") ? [] : (stryCov_9fa48("7017"), [...shown, ...(stryMutAct_9fa48("7018") ? hidden : (stryCov_9fa48("7018"), hidden.slice(0, 1)))]);
    const fields = (stryMutAct_9fa48("7019") ? wanted.every(c => c.includes(",")) : (stryCov_9fa48("7019"), wanted.some(stryMutAct_9fa48("7020") ? () => undefined : (stryCov_9fa48("7020"), c => c.includes(stryMutAct_9fa48("7021") ? "" : (stryCov_9fa48("7021"), ",")))))) ? stryMutAct_9fa48("7022") ? "Stryker was here!" : (stryCov_9fa48("7022"), "") : stryMutAct_9fa48("7023") ? `` : (stryCov_9fa48("7023"), `--fields ${shellWord(wanted.join(stryMutAct_9fa48("7024") ? "" : (stryCov_9fa48("7024"), ",")))} or `);
    return stryMutAct_9fa48("7025") ? `` : (stryCov_9fa48("7025"), `${head} (${fields}-o csv / -o json for every column)`);
  }
}