import { cellOf, isPlainObject, type Cell, type JsonRecord } from "./records.js";

// The cells of records as flattenRecord (records.ts) names them, each in its column — the
// union of the names in first-seen order — without building a flat record per record
// (docs/architecture.md, Exports). A dotted name (`user.team.name`) is made once, when the
// path is first met, and kept in a tree of the keys seen at each level: a record's cells
// are then found by looking its keys up, level by level, where flattening made a string
// per nested key and an object per record, and the row looked each name up again. Pure.

interface PathNode {
  /** The flattened name: the keys down to here joined by ".". */
  readonly name: string;
  /** Its column, once a value (not a non-empty object) was met here; -1 until then. */
  column: number;
  /** The keys met under it, where it held a non-empty object. */
  children: Map<string, PathNode> | undefined;
}

/** Whether an object has a key of its own (flattenRecord flattens it, an empty one is a null cell). */
function hasOwnKeys(value: JsonRecord): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

export class FlatColumns {
  /** The column names in first-seen order. */
  readonly columns: string[] = [];
  private readonly byName = new Map<string, number>();
  private readonly root = new Map<string, PathNode>();

  /** The record's cells by column, as flattenRecord makes them; a hole where the record has no value. */
  row(record: JsonRecord): Cell[] {
    const row: Cell[] = [];
    this.walk(record, this.root, "", row);
    return row;
  }

  private walk(record: JsonRecord, nodes: Map<string, PathNode>, prefix: string, row: Cell[]): void {
    // for…in, as flattenRecord: the same keys in the same order.
    for (const key in record) {
      const value = record[key];
      let node = nodes.get(key);
      if (node === undefined) {
        node = { name: prefix ? `${prefix}.${key}` : key, column: -1, children: undefined };
        nodes.set(key, node);
      }
      if (isPlainObject(value) && hasOwnKeys(value)) {
        this.walk(value, (node.children ??= new Map<string, PathNode>()), node.name, row);
        continue;
      }
      if (node.column < 0) {
        // flattenRecord's `out.__proto__ = cell` sets no key of its own (it is the object's
        // prototype, or nothing for a string): such a value has no column there either.
        if (node.name === "__proto__") continue;
        let column = this.byName.get(node.name);
        if (column === undefined) {
          // Two paths may flatten to one name (`a.b` and a → b): one column, the later value wins.
          column = this.columns.length;
          this.columns.push(node.name);
          this.byName.set(node.name, column);
        }
        node.column = column;
      }
      row[node.column] = typeof value === "string" ? value : cellOf(value);
    }
  }
}
