import { isPlainObject, type JsonRecord } from "./records.js";

// Answers whose envelope the spec leaves open, read by shape
// (docs/cli-contract.md "Records of unknown shape"). The spec's own name is tried first
// (`simulations`, `completionData`), then any other envelope a service may choose: a bare
// array, `{results}`, `{data}`, `{attempts}`… — the one list of objects in the answer, at the
// top level or one level down (`{data: {items: […]}}`). Pure: no I/O.

function isListOfObjects(value: unknown): value is JsonRecord[] {
  return Array.isArray(value) && value.every(isPlainObject);
}

export type ListLookup = { list: JsonRecord[] } | { problem: string };

/**
 * The list of items in an answer: a bare array; the field named `preferred`; else the one
 * array of objects among the fields (an empty array counts only when it is the only array);
 * else the same one level down.
 */
export function listInAnswer(body: unknown, preferred: string): ListLookup {
  if (isListOfObjects(body)) return { list: body };
  if (!isPlainObject(body)) return { problem: Array.isArray(body) ? "a list of non-objects" : `not a list (${typeof body})` };
  const named = body[preferred];
  if (isListOfObjects(named)) return { list: named };
  const atTop = onlyList(Object.values(body));
  if (atTop !== undefined) return atTop;
  const nested = Object.values(body)
    .filter(isPlainObject)
    .map((inner) => onlyList(Object.values(inner)))
    .filter((found): found is ListLookup => found !== undefined);
  if (nested.length > 1) return { problem: "several lists" };
  return nested[0] ?? { problem: "no list of items" };
}

/** The one list among these values; undefined when there is none; a problem when there are several filled ones. */
function onlyList(values: unknown[]): ListLookup | undefined {
  const lists = values.filter(isListOfObjects);
  const filled = lists.filter((l) => l.length > 0);
  if (filled.length > 1) return { problem: `several lists (${filled.length})` };
  if (filled[0]) return { list: filled[0] };
  if (lists.length >= 1) return { list: [] }; // only empty lists: nothing to show, whichever it is
  return undefined;
}

/** An http(s) URL, the only kind of deep link a browser opens. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function urlsIn(object: JsonRecord): string[] {
  const top = Object.values(object).filter(isHttpUrl);
  if (top.length > 0) return top;
  return Object.values(object)
    .filter(isPlainObject)
    .flatMap((o) => Object.values(o).filter(isHttpUrl));
}

/** Whether an entry of a list names this simulation (any string field equal to its id). */
function names(entry: JsonRecord, simulationId: string): boolean {
  return Object.values(entry).some(
    (v) => v === simulationId || (isPlainObject(v) && Object.values(v).some((inner) => inner === simulationId)),
  );
}

export type DeepLinkLookup = { url: string } | { problem: string };

/**
 * The deep link of `simulationId` in a deep-links answer (docs/service-spec.md §4.2: field
 * name not shown): a bare URL; an object with one URL-valued field (or one level down); or the
 * public documentation's list form `{"simulations": [{simulationId, deepLink}, …]}` — the
 * entry that names the asked simulation, its one URL.
 */
export function deepLinkIn(body: unknown, simulationId: string): DeepLinkLookup {
  if (isHttpUrl(body)) return { url: body };
  const list = isListOfObjects(body)
    ? body
    : isPlainObject(body)
      ? Object.values(body).find((v): v is JsonRecord[] => isListOfObjects(v) && v.length > 0)
      : undefined;
  if (list) {
    const entries = list.filter((entry) => names(entry, simulationId));
    const chosen = entries.length === 1 ? entries[0] : list.length === 1 ? list[0] : undefined;
    if (!chosen) {
      return {
        problem:
          // Here there is no entry or more than one (one is chosen).
          entries.length === 0
            ? `a list of ${list.length} simulations without ${simulationId}`
            : `${entries.length} entries for ${simulationId}`,
      };
    }
    const urls = urlsIn(chosen);
    const own = urls.length === 1 ? urls[0] : urls.find((u) => u.includes(simulationId));
    return own ? { url: own } : { problem: `no single deep-link URL in the entry of ${simulationId}` };
  }
  if (isPlainObject(body)) {
    const urls = urlsIn(body);
    if (urls.length > 1) return { problem: `${urls.length} URLs and no way to tell which is the deep link` };
    if (urls[0]) return { url: urls[0] };
  }
  return { problem: "no deep-link URL in the answer" };
}
