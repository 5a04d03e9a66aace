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
import { isPlainObject } from "../domain/records.js";
import { jsonText } from "./json-text.js";
import { renderResult, type CommandResult, type RenderOptions } from "./render.js";

// --query <expr>: a JMESPath expression applied to the JSON result before it is formatted, for
// every command and every format (docs/cli-contract.md, global options; issue 16 item 3).
// @jmespath-community/jmespath is imported here only, and this module only when --query is
// given, so no other run pays for it.
//
// The expression is compiled before the command sends anything (a bad one is exit 2 with
// nothing sent). What it is applied to is exactly what `-o json` would print: the array of
// records, or the one object. The answer is printed by shape:
// - an array of objects, or an object: as records / one object, in any format (--fields
//   still applies, after the query);
// - anything else (a string, a number, an array of strings…): JSON for json; one value per
//   line for ndjson and text (strings bare, the rest as compact JSON); a `value` column for
//   csv and table.
// `-o text` is accepted for every command when --query is given: `--query '[].id' -o text`
// prints one id a line, like `jq -r`.

type Json = null | boolean | number | string | Json[] | {
  [key: string]: Json;
};
export interface CompiledQuery {
  readonly expression: string;
  apply(value: unknown): unknown;
}

/** One line, without the library's multi-line caret drawings. */
function describe(error: unknown): string {
  if (stryMutAct_9fa48("6538")) {
    {}
  } else {
    stryCov_9fa48("6538");
    const text = error instanceof Error ? error.message : String(error);
    return stryMutAct_9fa48("6541") ? text.split("\n")[0]?.trim() && "invalid expression" : stryMutAct_9fa48("6540") ? false : stryMutAct_9fa48("6539") ? true : (stryCov_9fa48("6539", "6540", "6541"), (stryMutAct_9fa48("6543") ? text.split("\n")[0].trim() : stryMutAct_9fa48("6542") ? text.split("\n")[0] : (stryCov_9fa48("6542", "6543"), text.split(stryMutAct_9fa48("6544") ? "" : (stryCov_9fa48("6544"), "\n"))[0]?.trim())) || (stryMutAct_9fa48("6545") ? "" : (stryCov_9fa48("6545"), "invalid expression")));
  }
}
export async function compileQuery(expression: string): Promise<CompiledQuery> {
  if (stryMutAct_9fa48("6546")) {
    {}
  } else {
    stryCov_9fa48("6546");
    if (stryMutAct_9fa48("6549") ? expression.trim() !== "" : stryMutAct_9fa48("6548") ? false : stryMutAct_9fa48("6547") ? true : (stryCov_9fa48("6547", "6548", "6549"), (stryMutAct_9fa48("6550") ? expression : (stryCov_9fa48("6550"), expression.trim())) === (stryMutAct_9fa48("6551") ? "Stryker was here!" : (stryCov_9fa48("6551"), "")))) throw new UsageError(stryMutAct_9fa48("6552") ? "" : (stryCov_9fa48("6552"), "--query: the expression is empty; e.g. --query '[].id'"));
    const {
      compile,
      search
    } = await import("@jmespath-community/jmespath");
    try {
      if (stryMutAct_9fa48("6553")) {
        {}
      } else {
        stryCov_9fa48("6553");
        compile(expression);
      }
    } catch (error) {
      if (stryMutAct_9fa48("6554")) {
        {}
      } else {
        stryCov_9fa48("6554");
        throw new UsageError(stryMutAct_9fa48("6555") ? `` : (stryCov_9fa48("6555"), `--query: not a valid JMESPath expression (${describe(error)})`), stryMutAct_9fa48("6556") ? {} : (stryCov_9fa48("6556"), {
          hint: stryMutAct_9fa48("6557") ? "" : (stryCov_9fa48("6557"), "see https://jmespath.site for the syntax; quote the expression for the shell")
        }));
      }
    }
    return stryMutAct_9fa48("6558") ? {} : (stryCov_9fa48("6558"), {
      expression,
      apply(value) {
        if (stryMutAct_9fa48("6559")) {
          {}
        } else {
          stryCov_9fa48("6559");
          try {
            if (stryMutAct_9fa48("6560")) {
              {}
            } else {
              stryCov_9fa48("6560");
              // JSON round trip: the library wants plain JSON values (no undefined, no Dates).
              return search(JSON.parse(JSON.stringify(value ?? null)) as Json, expression);
            }
          } catch (error) {
            if (stryMutAct_9fa48("6561")) {
              {}
            } else {
              stryCov_9fa48("6561");
              // Valid syntax that the data cannot satisfy (length() of a number…): still the
              // expression's fault, so a usage error — though the request has been made by now.
              throw new UsageError(stryMutAct_9fa48("6562") ? `` : (stryCov_9fa48("6562"), `--query: ${describe(error)}`), stryMutAct_9fa48("6563") ? {} : (stryCov_9fa48("6563"), {
                hint: stryMutAct_9fa48("6564") ? "" : (stryCov_9fa48("6564"), "check the expression against `-o json` output")
              }));
            }
          }
        }
      }
    });
  }
}

/** The JSON value `-o json` would print for a result. */
export function resultJson(result: CommandResult): unknown {
  if (stryMutAct_9fa48("6565")) {
    {}
  } else {
    stryCov_9fa48("6565");
    if (stryMutAct_9fa48("6568") ? result.kind !== "records" : stryMutAct_9fa48("6567") ? false : stryMutAct_9fa48("6566") ? true : (stryCov_9fa48("6566", "6567", "6568"), result.kind === (stryMutAct_9fa48("6569") ? "" : (stryCov_9fa48("6569"), "records")))) return result.records;
    if (stryMutAct_9fa48("6572") ? result.kind === "object" && result.kind === "answer" : stryMutAct_9fa48("6571") ? false : stryMutAct_9fa48("6570") ? true : (stryCov_9fa48("6570", "6571", "6572"), (stryMutAct_9fa48("6574") ? result.kind !== "object" : stryMutAct_9fa48("6573") ? false : (stryCov_9fa48("6573", "6574"), result.kind === (stryMutAct_9fa48("6575") ? "" : (stryCov_9fa48("6575"), "object")))) || (stryMutAct_9fa48("6577") ? result.kind !== "answer" : stryMutAct_9fa48("6576") ? false : (stryCov_9fa48("6576", "6577"), result.kind === (stryMutAct_9fa48("6578") ? "" : (stryCov_9fa48("6578"), "answer")))))) return result.value;
    return null;
  }
}
function scalarText(value: unknown): string {
  if (stryMutAct_9fa48("6579")) {
    {}
  } else {
    stryCov_9fa48("6579");
    return (stryMutAct_9fa48("6582") ? typeof value !== "string" : stryMutAct_9fa48("6581") ? false : stryMutAct_9fa48("6580") ? true : (stryCov_9fa48("6580", "6581", "6582"), typeof value === (stryMutAct_9fa48("6583") ? "" : (stryCov_9fa48("6583"), "string")))) ? value : jsonText(value);
  }
}

/** The queried value as a result, or as finished text when it is not records-shaped. */
export async function renderQueried(value: unknown, options: RenderOptions): Promise<string> {
  if (stryMutAct_9fa48("6584")) {
    {}
  } else {
    stryCov_9fa48("6584");
    const {
      format
    } = options;
    if (stryMutAct_9fa48("6587") ? Array.isArray(value) || value.every(isPlainObject) : stryMutAct_9fa48("6586") ? false : stryMutAct_9fa48("6585") ? true : (stryCov_9fa48("6585", "6586", "6587"), Array.isArray(value) && (stryMutAct_9fa48("6588") ? value.some(isPlainObject) : (stryCov_9fa48("6588"), value.every(isPlainObject))))) {
      if (stryMutAct_9fa48("6589")) {
        {}
      } else {
        stryCov_9fa48("6589");
        if (stryMutAct_9fa48("6592") ? format !== "text" : stryMutAct_9fa48("6591") ? false : stryMutAct_9fa48("6590") ? true : (stryCov_9fa48("6590", "6591", "6592"), format === (stryMutAct_9fa48("6593") ? "" : (stryCov_9fa48("6593"), "text")))) return value.map(stryMutAct_9fa48("6594") ? () => undefined : (stryCov_9fa48("6594"), v => stryMutAct_9fa48("6595") ? `` : (stryCov_9fa48("6595"), `${jsonText(v)}\n`))).join(stryMutAct_9fa48("6596") ? "Stryker was here!" : (stryCov_9fa48("6596"), ""));
        return renderResult(stryMutAct_9fa48("6597") ? {} : (stryCov_9fa48("6597"), {
          kind: stryMutAct_9fa48("6598") ? "" : (stryCov_9fa48("6598"), "records"),
          records: value
        }), options);
      }
    }
    if (stryMutAct_9fa48("6600") ? false : stryMutAct_9fa48("6599") ? true : (stryCov_9fa48("6599", "6600"), isPlainObject(value))) {
      if (stryMutAct_9fa48("6601")) {
        {}
      } else {
        stryCov_9fa48("6601");
        if (stryMutAct_9fa48("6604") ? format !== "text" : stryMutAct_9fa48("6603") ? false : stryMutAct_9fa48("6602") ? true : (stryCov_9fa48("6602", "6603", "6604"), format === (stryMutAct_9fa48("6605") ? "" : (stryCov_9fa48("6605"), "text")))) return stryMutAct_9fa48("6606") ? `` : (stryCov_9fa48("6606"), `${jsonText(value)}\n`);
        return renderResult(stryMutAct_9fa48("6607") ? {} : (stryCov_9fa48("6607"), {
          kind: stryMutAct_9fa48("6608") ? "" : (stryCov_9fa48("6608"), "object"),
          value
        }), options);
      }
    }
    const items = Array.isArray(value) ? value as unknown[] : stryMutAct_9fa48("6609") ? [] : (stryCov_9fa48("6609"), [value]);
    switch (format) {
      case stryMutAct_9fa48("6611") ? "" : (stryCov_9fa48("6611"), "json"):
        if (stryMutAct_9fa48("6610")) {} else {
          stryCov_9fa48("6610");
          return stryMutAct_9fa48("6612") ? `` : (stryCov_9fa48("6612"), `${jsonText(value, 2)}\n`);
        }
      case stryMutAct_9fa48("6613") ? "" : (stryCov_9fa48("6613"), "ndjson"):
      case stryMutAct_9fa48("6615") ? "" : (stryCov_9fa48("6615"), "text"):
        if (stryMutAct_9fa48("6614")) {} else {
          stryCov_9fa48("6614");
          return stryMutAct_9fa48("6616") ? items.map(v => `${format === "text" ? scalarText(v) : jsonText(v)}\n`).join("") : (stryCov_9fa48("6616"), items.filter(stryMutAct_9fa48("6617") ? () => undefined : (stryCov_9fa48("6617"), v => stryMutAct_9fa48("6620") ? v !== null && format !== "text" : stryMutAct_9fa48("6619") ? false : stryMutAct_9fa48("6618") ? true : (stryCov_9fa48("6618", "6619", "6620"), (stryMutAct_9fa48("6622") ? v === null : stryMutAct_9fa48("6621") ? false : (stryCov_9fa48("6621", "6622"), v !== null)) || (stryMutAct_9fa48("6624") ? format === "text" : stryMutAct_9fa48("6623") ? false : (stryCov_9fa48("6623", "6624"), format !== (stryMutAct_9fa48("6625") ? "" : (stryCov_9fa48("6625"), "text"))))))).map(stryMutAct_9fa48("6626") ? () => undefined : (stryCov_9fa48("6626"), v => stryMutAct_9fa48("6627") ? `` : (stryCov_9fa48("6627"), `${(stryMutAct_9fa48("6630") ? format !== "text" : stryMutAct_9fa48("6629") ? false : stryMutAct_9fa48("6628") ? true : (stryCov_9fa48("6628", "6629", "6630"), format === (stryMutAct_9fa48("6631") ? "" : (stryCov_9fa48("6631"), "text")))) ? scalarText(v) : jsonText(v)}\n`))).join(stryMutAct_9fa48("6632") ? "Stryker was here!" : (stryCov_9fa48("6632"), "")));
        }
      default:
        if (stryMutAct_9fa48("6633")) {} else {
          stryCov_9fa48("6633");
          if (stryMutAct_9fa48("6636") ? value !== null : stryMutAct_9fa48("6635") ? false : stryMutAct_9fa48("6634") ? true : (stryCov_9fa48("6634", "6635", "6636"), value === null)) return renderResult(stryMutAct_9fa48("6637") ? {} : (stryCov_9fa48("6637"), {
            kind: stryMutAct_9fa48("6638") ? "" : (stryCov_9fa48("6638"), "records"),
            records: stryMutAct_9fa48("6639") ? ["Stryker was here"] : (stryCov_9fa48("6639"), []),
            knownFields: stryMutAct_9fa48("6640") ? [] : (stryCov_9fa48("6640"), [stryMutAct_9fa48("6641") ? "" : (stryCov_9fa48("6641"), "value")])
          }), options);
          return renderResult(stryMutAct_9fa48("6642") ? {} : (stryCov_9fa48("6642"), {
            kind: stryMutAct_9fa48("6643") ? "" : (stryCov_9fa48("6643"), "records"),
            records: items.map(stryMutAct_9fa48("6644") ? () => undefined : (stryCov_9fa48("6644"), v => stryMutAct_9fa48("6645") ? {} : (stryCov_9fa48("6645"), {
              value: v
            })))
          }), options);
        }
    }
  }
}