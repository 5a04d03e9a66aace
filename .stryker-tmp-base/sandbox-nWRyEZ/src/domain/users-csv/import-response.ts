// @ts-nocheck
// The answer to one bulk-import upload, read by shape (docs/service-spec.md §4.8: "a taskId … for each
// invalid row, its row number and its list of field errors, plus the count of valid users
// and the count of invalid users. Exact response field names: not shown").
//
// service-notes.md shows the public documentation's names — `taskId`, `validUsersCount`,
// `invalidUsersCount`, `errors: [{row, errors: [...]}]` — so those are read first; other
// reasonable spellings are accepted too (`id`, `task.id`, `rowErrors`, `rowNumber`,
// `messages`, `{field, message}` items…). The same reader handles the 400 "no valid row"
// answer, which carries the counts and errors but no taskId.
//
// Row numbers in the answer are spreadsheet rows of the uploaded batch (header = 1); each
// is mapped back to the row of the original file with originalRowOf, so the user sees the
// row they can find in their own file.
//
// Pure: no I/O.
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
import { isPlainObject, type JsonRecord } from "../records.js";
import { originalRowOf, type UserBatch } from "./batches.js";
export interface ServiceRowError {
  /** Row of the original file; undefined when the service named a row the batch lacks. */
  row: number | undefined;
  /** Row as the service numbered it in the uploaded batch (header = 1). */
  batchRow: number | undefined;
  /** A column name when the service gave one. */
  field: string | undefined;
  messages: string[];
}
export interface UploadAnswer {
  taskId: string | undefined;
  validUsersCount: number | undefined;
  invalidUsersCount: number | undefined;
  rowErrors: ServiceRowError[];
}
const TASK_ID_NAMES = stryMutAct_9fa48("4853") ? [] : (stryCov_9fa48("4853"), [stryMutAct_9fa48("4854") ? "" : (stryCov_9fa48("4854"), "taskId"), stryMutAct_9fa48("4855") ? "" : (stryCov_9fa48("4855"), "task_id"), stryMutAct_9fa48("4856") ? "" : (stryCov_9fa48("4856"), "taskID"), stryMutAct_9fa48("4857") ? "" : (stryCov_9fa48("4857"), "importTaskId"), stryMutAct_9fa48("4858") ? "" : (stryCov_9fa48("4858"), "id")]);
const TASK_OBJECT_NAMES = stryMutAct_9fa48("4859") ? [] : (stryCov_9fa48("4859"), [stryMutAct_9fa48("4860") ? "" : (stryCov_9fa48("4860"), "task"), stryMutAct_9fa48("4861") ? "" : (stryCov_9fa48("4861"), "importTask"), stryMutAct_9fa48("4862") ? "" : (stryCov_9fa48("4862"), "data"), stryMutAct_9fa48("4863") ? "" : (stryCov_9fa48("4863"), "result")]);
const VALID_COUNT_NAMES = stryMutAct_9fa48("4864") ? [] : (stryCov_9fa48("4864"), [stryMutAct_9fa48("4865") ? "" : (stryCov_9fa48("4865"), "validUsersCount"), stryMutAct_9fa48("4866") ? "" : (stryCov_9fa48("4866"), "validCount"), stryMutAct_9fa48("4867") ? "" : (stryCov_9fa48("4867"), "validRows"), stryMutAct_9fa48("4868") ? "" : (stryCov_9fa48("4868"), "valid"), stryMutAct_9fa48("4869") ? "" : (stryCov_9fa48("4869"), "importedCount")]);
const INVALID_COUNT_NAMES = stryMutAct_9fa48("4870") ? [] : (stryCov_9fa48("4870"), [stryMutAct_9fa48("4871") ? "" : (stryCov_9fa48("4871"), "invalidUsersCount"), stryMutAct_9fa48("4872") ? "" : (stryCov_9fa48("4872"), "invalidCount"), stryMutAct_9fa48("4873") ? "" : (stryCov_9fa48("4873"), "invalidRows"), stryMutAct_9fa48("4874") ? "" : (stryCov_9fa48("4874"), "invalid"), stryMutAct_9fa48("4875") ? "" : (stryCov_9fa48("4875"), "errorCount")]);
const ERROR_LIST_NAMES = stryMutAct_9fa48("4876") ? [] : (stryCov_9fa48("4876"), [stryMutAct_9fa48("4877") ? "" : (stryCov_9fa48("4877"), "errors"), stryMutAct_9fa48("4878") ? "" : (stryCov_9fa48("4878"), "rowErrors"), stryMutAct_9fa48("4879") ? "" : (stryCov_9fa48("4879"), "invalidUsers"), stryMutAct_9fa48("4880") ? "" : (stryCov_9fa48("4880"), "invalidRows"), stryMutAct_9fa48("4881") ? "" : (stryCov_9fa48("4881"), "failures"), stryMutAct_9fa48("4882") ? "" : (stryCov_9fa48("4882"), "rows")]);
const ROW_NAMES = stryMutAct_9fa48("4883") ? [] : (stryCov_9fa48("4883"), [stryMutAct_9fa48("4884") ? "" : (stryCov_9fa48("4884"), "row"), stryMutAct_9fa48("4885") ? "" : (stryCov_9fa48("4885"), "rowNumber"), stryMutAct_9fa48("4886") ? "" : (stryCov_9fa48("4886"), "line"), stryMutAct_9fa48("4887") ? "" : (stryCov_9fa48("4887"), "lineNumber"), stryMutAct_9fa48("4888") ? "" : (stryCov_9fa48("4888"), "index")]);
const FIELD_NAMES = stryMutAct_9fa48("4889") ? [] : (stryCov_9fa48("4889"), [stryMutAct_9fa48("4890") ? "" : (stryCov_9fa48("4890"), "field"), stryMutAct_9fa48("4891") ? "" : (stryCov_9fa48("4891"), "column"), stryMutAct_9fa48("4892") ? "" : (stryCov_9fa48("4892"), "fieldName"), stryMutAct_9fa48("4893") ? "" : (stryCov_9fa48("4893"), "columnName")]);
const MESSAGE_NAMES = stryMutAct_9fa48("4894") ? [] : (stryCov_9fa48("4894"), [stryMutAct_9fa48("4895") ? "" : (stryCov_9fa48("4895"), "errors"), stryMutAct_9fa48("4896") ? "" : (stryCov_9fa48("4896"), "messages"), stryMutAct_9fa48("4897") ? "" : (stryCov_9fa48("4897"), "message"), stryMutAct_9fa48("4898") ? "" : (stryCov_9fa48("4898"), "error"), stryMutAct_9fa48("4899") ? "" : (stryCov_9fa48("4899"), "reason"), stryMutAct_9fa48("4900") ? "" : (stryCov_9fa48("4900"), "problems"), stryMutAct_9fa48("4901") ? "" : (stryCov_9fa48("4901"), "detail")]);
function pick(object: JsonRecord, names: readonly string[]): unknown {
  if (stryMutAct_9fa48("4902")) {
    {}
  } else {
    stryCov_9fa48("4902");
    for (const name of names) if (stryMutAct_9fa48("4905") ? name in object && object[name] !== undefined || object[name] !== null : stryMutAct_9fa48("4904") ? false : stryMutAct_9fa48("4903") ? true : (stryCov_9fa48("4903", "4904", "4905"), (stryMutAct_9fa48("4907") ? name in object || object[name] !== undefined : stryMutAct_9fa48("4906") ? true : (stryCov_9fa48("4906", "4907"), name in object && (stryMutAct_9fa48("4909") ? object[name] === undefined : stryMutAct_9fa48("4908") ? true : (stryCov_9fa48("4908", "4909"), object[name] !== undefined)))) && (stryMutAct_9fa48("4911") ? object[name] === null : stryMutAct_9fa48("4910") ? true : (stryCov_9fa48("4910", "4911"), object[name] !== null)))) return object[name];
    return undefined;
  }
}
function idText(value: unknown): string | undefined {
  if (stryMutAct_9fa48("4912")) {
    {}
  } else {
    stryCov_9fa48("4912");
    if (stryMutAct_9fa48("4915") ? typeof value === "string" || value.trim() !== "" : stryMutAct_9fa48("4914") ? false : stryMutAct_9fa48("4913") ? true : (stryCov_9fa48("4913", "4914", "4915"), (stryMutAct_9fa48("4917") ? typeof value !== "string" : stryMutAct_9fa48("4916") ? true : (stryCov_9fa48("4916", "4917"), typeof value === (stryMutAct_9fa48("4918") ? "" : (stryCov_9fa48("4918"), "string")))) && (stryMutAct_9fa48("4920") ? value.trim() === "" : stryMutAct_9fa48("4919") ? true : (stryCov_9fa48("4919", "4920"), (stryMutAct_9fa48("4921") ? value : (stryCov_9fa48("4921"), value.trim())) !== (stryMutAct_9fa48("4922") ? "Stryker was here!" : (stryCov_9fa48("4922"), "")))))) return value;
    if (stryMutAct_9fa48("4925") ? typeof value === "number" || Number.isFinite(value) : stryMutAct_9fa48("4924") ? false : stryMutAct_9fa48("4923") ? true : (stryCov_9fa48("4923", "4924", "4925"), (stryMutAct_9fa48("4927") ? typeof value !== "number" : stryMutAct_9fa48("4926") ? true : (stryCov_9fa48("4926", "4927"), typeof value === (stryMutAct_9fa48("4928") ? "" : (stryCov_9fa48("4928"), "number")))) && Number.isFinite(value))) return String(value);
    return undefined;
  }
}
function count(value: unknown): number | undefined {
  if (stryMutAct_9fa48("4929")) {
    {}
  } else {
    stryCov_9fa48("4929");
    if (stryMutAct_9fa48("4932") ? typeof value === "number" && Number.isInteger(value) || value >= 0 : stryMutAct_9fa48("4931") ? false : stryMutAct_9fa48("4930") ? true : (stryCov_9fa48("4930", "4931", "4932"), (stryMutAct_9fa48("4934") ? typeof value === "number" || Number.isInteger(value) : stryMutAct_9fa48("4933") ? true : (stryCov_9fa48("4933", "4934"), (stryMutAct_9fa48("4936") ? typeof value !== "number" : stryMutAct_9fa48("4935") ? true : (stryCov_9fa48("4935", "4936"), typeof value === (stryMutAct_9fa48("4937") ? "" : (stryCov_9fa48("4937"), "number")))) && Number.isInteger(value))) && (stryMutAct_9fa48("4940") ? value < 0 : stryMutAct_9fa48("4939") ? value > 0 : stryMutAct_9fa48("4938") ? true : (stryCov_9fa48("4938", "4939", "4940"), value >= 0)))) return value;
    if (stryMutAct_9fa48("4943") ? typeof value === "string" || /^\d+$/.test(value.trim()) : stryMutAct_9fa48("4942") ? false : stryMutAct_9fa48("4941") ? true : (stryCov_9fa48("4941", "4942", "4943"), (stryMutAct_9fa48("4945") ? typeof value !== "string" : stryMutAct_9fa48("4944") ? true : (stryCov_9fa48("4944", "4945"), typeof value === (stryMutAct_9fa48("4946") ? "" : (stryCov_9fa48("4946"), "string")))) && (stryMutAct_9fa48("4950") ? /^\D+$/ : stryMutAct_9fa48("4949") ? /^\d$/ : stryMutAct_9fa48("4948") ? /^\d+/ : stryMutAct_9fa48("4947") ? /\d+$/ : (stryCov_9fa48("4947", "4948", "4949", "4950"), /^\d+$/)).test(stryMutAct_9fa48("4951") ? value : (stryCov_9fa48("4951"), value.trim())))) return Number(stryMutAct_9fa48("4952") ? value : (stryCov_9fa48("4952"), value.trim()));
    return undefined;
  }
}

/** taskId wherever it is: the documented name first, then other spellings, then one level down. */
export function taskIdOf(body: unknown): string | undefined {
  if (stryMutAct_9fa48("4953")) {
    {}
  } else {
    stryCov_9fa48("4953");
    if (stryMutAct_9fa48("4956") ? false : stryMutAct_9fa48("4955") ? true : stryMutAct_9fa48("4954") ? isPlainObject(body) : (stryCov_9fa48("4954", "4955", "4956"), !isPlainObject(body))) return undefined;
    const direct = idText(pick(body, TASK_ID_NAMES));
    if (stryMutAct_9fa48("4958") ? false : stryMutAct_9fa48("4957") ? true : (stryCov_9fa48("4957", "4958"), direct)) return direct;
    for (const name of TASK_OBJECT_NAMES) {
      if (stryMutAct_9fa48("4959")) {
        {}
      } else {
        stryCov_9fa48("4959");
        const inner = body[name];
        if (stryMutAct_9fa48("4961") ? false : stryMutAct_9fa48("4960") ? true : (stryCov_9fa48("4960", "4961"), isPlainObject(inner))) {
          if (stryMutAct_9fa48("4962")) {
            {}
          } else {
            stryCov_9fa48("4962");
            const nested = idText(pick(inner, TASK_ID_NAMES));
            if (stryMutAct_9fa48("4964") ? false : stryMutAct_9fa48("4963") ? true : (stryCov_9fa48("4963", "4964"), nested)) return nested;
          }
        }
      }
    }
    return undefined;
  }
}
function messagesOf(value: unknown): {
  field: string | undefined;
  messages: string[];
} {
  if (stryMutAct_9fa48("4965")) {
    {}
  } else {
    stryCov_9fa48("4965");
    if (stryMutAct_9fa48("4968") ? typeof value !== "string" : stryMutAct_9fa48("4967") ? false : stryMutAct_9fa48("4966") ? true : (stryCov_9fa48("4966", "4967", "4968"), typeof value === (stryMutAct_9fa48("4969") ? "" : (stryCov_9fa48("4969"), "string")))) return stryMutAct_9fa48("4970") ? {} : (stryCov_9fa48("4970"), {
      field: undefined,
      messages: (stryMutAct_9fa48("4973") ? value.trim() !== "" : stryMutAct_9fa48("4972") ? false : stryMutAct_9fa48("4971") ? true : (stryCov_9fa48("4971", "4972", "4973"), (stryMutAct_9fa48("4974") ? value : (stryCov_9fa48("4974"), value.trim())) === (stryMutAct_9fa48("4975") ? "Stryker was here!" : (stryCov_9fa48("4975"), "")))) ? stryMutAct_9fa48("4976") ? ["Stryker was here"] : (stryCov_9fa48("4976"), []) : stryMutAct_9fa48("4977") ? [] : (stryCov_9fa48("4977"), [value])
    });
    if (stryMutAct_9fa48("4979") ? false : stryMutAct_9fa48("4978") ? true : (stryCov_9fa48("4978", "4979"), Array.isArray(value))) {
      if (stryMutAct_9fa48("4980")) {
        {}
      } else {
        stryCov_9fa48("4980");
        const fields = new Set<string>();
        const messages: string[] = stryMutAct_9fa48("4981") ? ["Stryker was here"] : (stryCov_9fa48("4981"), []);
        for (const item of value) {
          if (stryMutAct_9fa48("4982")) {
            {}
          } else {
            stryCov_9fa48("4982");
            const inner = messagesOf(item);
            if (stryMutAct_9fa48("4984") ? false : stryMutAct_9fa48("4983") ? true : (stryCov_9fa48("4983", "4984"), inner.field)) fields.add(inner.field);
            messages.push(...inner.messages);
          }
        }
        return stryMutAct_9fa48("4985") ? {} : (stryCov_9fa48("4985"), {
          field: (stryMutAct_9fa48("4988") ? fields.size !== 1 : stryMutAct_9fa48("4987") ? false : stryMutAct_9fa48("4986") ? true : (stryCov_9fa48("4986", "4987", "4988"), fields.size === 1)) ? (stryMutAct_9fa48("4989") ? [] : (stryCov_9fa48("4989"), [...fields]))[0] : undefined,
          messages
        });
      }
    }
    if (stryMutAct_9fa48("4991") ? false : stryMutAct_9fa48("4990") ? true : (stryCov_9fa48("4990", "4991"), isPlainObject(value))) {
      if (stryMutAct_9fa48("4992")) {
        {}
      } else {
        stryCov_9fa48("4992");
        const fieldValue = pick(value, FIELD_NAMES);
        const field = (stryMutAct_9fa48("4995") ? typeof fieldValue !== "string" : stryMutAct_9fa48("4994") ? false : stryMutAct_9fa48("4993") ? true : (stryCov_9fa48("4993", "4994", "4995"), typeof fieldValue === (stryMutAct_9fa48("4996") ? "" : (stryCov_9fa48("4996"), "string")))) ? fieldValue : undefined;
        const message = pick(value, MESSAGE_NAMES);
        const inner = (stryMutAct_9fa48("4999") ? message !== undefined : stryMutAct_9fa48("4998") ? false : stryMutAct_9fa48("4997") ? true : (stryCov_9fa48("4997", "4998", "4999"), message === undefined)) ? stryMutAct_9fa48("5000") ? {} : (stryCov_9fa48("5000"), {
          field: undefined,
          messages: stryMutAct_9fa48("5001") ? ["Stryker was here"] : (stryCov_9fa48("5001"), [])
        }) : messagesOf(message);
        if (stryMutAct_9fa48("5004") ? inner.messages.length !== 0 : stryMutAct_9fa48("5003") ? false : stryMutAct_9fa48("5002") ? true : (stryCov_9fa48("5002", "5003", "5004"), inner.messages.length === 0)) return stryMutAct_9fa48("5005") ? {} : (stryCov_9fa48("5005"), {
          field,
          messages: stryMutAct_9fa48("5006") ? [] : (stryCov_9fa48("5006"), [field ? stryMutAct_9fa48("5007") ? "" : (stryCov_9fa48("5007"), "invalid") : JSON.stringify(value)])
        });
        // "field: message" keeps each column beside its message when one row has several.
        return stryMutAct_9fa48("5008") ? {} : (stryCov_9fa48("5008"), {
          field: stryMutAct_9fa48("5009") ? field && inner.field : (stryCov_9fa48("5009"), field ?? inner.field),
          messages: field ? inner.messages.map(stryMutAct_9fa48("5010") ? () => undefined : (stryCov_9fa48("5010"), m => stryMutAct_9fa48("5011") ? `` : (stryCov_9fa48("5011"), `${field}: ${m}`))) : inner.messages
        });
      }
    }
    if (stryMutAct_9fa48("5014") ? value === undefined && value === null : stryMutAct_9fa48("5013") ? false : stryMutAct_9fa48("5012") ? true : (stryCov_9fa48("5012", "5013", "5014"), (stryMutAct_9fa48("5016") ? value !== undefined : stryMutAct_9fa48("5015") ? false : (stryCov_9fa48("5015", "5016"), value === undefined)) || (stryMutAct_9fa48("5018") ? value !== null : stryMutAct_9fa48("5017") ? false : (stryCov_9fa48("5017", "5018"), value === null)))) return stryMutAct_9fa48("5019") ? {} : (stryCov_9fa48("5019"), {
      field: undefined,
      messages: stryMutAct_9fa48("5020") ? ["Stryker was here"] : (stryCov_9fa48("5020"), [])
    });
    return stryMutAct_9fa48("5021") ? {} : (stryCov_9fa48("5021"), {
      field: undefined,
      messages: stryMutAct_9fa48("5022") ? [] : (stryCov_9fa48("5022"), [String(value)])
    });
  }
}
function isRowError(value: unknown): value is JsonRecord {
  if (stryMutAct_9fa48("5023")) {
    {}
  } else {
    stryCov_9fa48("5023");
    return stryMutAct_9fa48("5026") ? isPlainObject(value) || count(pick(value, ROW_NAMES)) !== undefined : stryMutAct_9fa48("5025") ? false : stryMutAct_9fa48("5024") ? true : (stryCov_9fa48("5024", "5025", "5026"), isPlainObject(value) && (stryMutAct_9fa48("5028") ? count(pick(value, ROW_NAMES)) === undefined : stryMutAct_9fa48("5027") ? true : (stryCov_9fa48("5027", "5028"), count(pick(value, ROW_NAMES)) !== undefined)));
  }
}

/** The list of row errors: the documented `errors` first, else any array of row-numbered objects. */
function rowErrorList(body: JsonRecord): JsonRecord[] {
  if (stryMutAct_9fa48("5029")) {
    {}
  } else {
    stryCov_9fa48("5029");
    for (const name of ERROR_LIST_NAMES) {
      if (stryMutAct_9fa48("5030")) {
        {}
      } else {
        stryCov_9fa48("5030");
        const list = body[name];
        if (stryMutAct_9fa48("5033") ? Array.isArray(list) || list.some(isRowError) : stryMutAct_9fa48("5032") ? false : stryMutAct_9fa48("5031") ? true : (stryCov_9fa48("5031", "5032", "5033"), Array.isArray(list) && (stryMutAct_9fa48("5034") ? list.every(isRowError) : (stryCov_9fa48("5034"), list.some(isRowError))))) return stryMutAct_9fa48("5035") ? list : (stryCov_9fa48("5035"), list.filter(isRowError));
      }
    }
    for (const value of Object.values(body)) {
      if (stryMutAct_9fa48("5036")) {
        {}
      } else {
        stryCov_9fa48("5036");
        if (stryMutAct_9fa48("5039") ? Array.isArray(value) || value.some(isRowError) : stryMutAct_9fa48("5038") ? false : stryMutAct_9fa48("5037") ? true : (stryCov_9fa48("5037", "5038", "5039"), Array.isArray(value) && (stryMutAct_9fa48("5040") ? value.every(isRowError) : (stryCov_9fa48("5040"), value.some(isRowError))))) return stryMutAct_9fa48("5041") ? value : (stryCov_9fa48("5041"), value.filter(isRowError));
      }
    }
    return stryMutAct_9fa48("5042") ? ["Stryker was here"] : (stryCov_9fa48("5042"), []);
  }
}

/** Reads one upload answer (200, or the 400 body of a batch without a valid row). */
export function parseUploadAnswer(body: unknown, batch: Pick<UserBatch, "rows">): UploadAnswer {
  if (stryMutAct_9fa48("5043")) {
    {}
  } else {
    stryCov_9fa48("5043");
    if (stryMutAct_9fa48("5046") ? false : stryMutAct_9fa48("5045") ? true : stryMutAct_9fa48("5044") ? isPlainObject(body) : (stryCov_9fa48("5044", "5045", "5046"), !isPlainObject(body))) return stryMutAct_9fa48("5047") ? {} : (stryCov_9fa48("5047"), {
      taskId: idText(body),
      validUsersCount: undefined,
      invalidUsersCount: undefined,
      rowErrors: stryMutAct_9fa48("5048") ? ["Stryker was here"] : (stryCov_9fa48("5048"), [])
    });
    const rowErrors = rowErrorList(body).map((item): ServiceRowError => {
      if (stryMutAct_9fa48("5049")) {
        {}
      } else {
        stryCov_9fa48("5049");
        const batchRow = count(pick(item, ROW_NAMES));
        const rowFields = stryMutAct_9fa48("5050") ? {} : (stryCov_9fa48("5050"), {
          ...item
        });
        for (const name of ROW_NAMES) delete rowFields[name];
        const {
          field,
          messages
        } = messagesOf(stryMutAct_9fa48("5051") ? pick(rowFields, MESSAGE_NAMES) && rowFields : (stryCov_9fa48("5051"), pick(rowFields, MESSAGE_NAMES) ?? rowFields));
        const fieldValue = pick(item, FIELD_NAMES);
        return stryMutAct_9fa48("5052") ? {} : (stryCov_9fa48("5052"), {
          batchRow,
          row: (stryMutAct_9fa48("5055") ? batchRow !== undefined : stryMutAct_9fa48("5054") ? false : stryMutAct_9fa48("5053") ? true : (stryCov_9fa48("5053", "5054", "5055"), batchRow === undefined)) ? undefined : originalRowOf(batch, batchRow),
          field: (stryMutAct_9fa48("5058") ? typeof fieldValue !== "string" : stryMutAct_9fa48("5057") ? false : stryMutAct_9fa48("5056") ? true : (stryCov_9fa48("5056", "5057", "5058"), typeof fieldValue === (stryMutAct_9fa48("5059") ? "" : (stryCov_9fa48("5059"), "string")))) ? fieldValue : field,
          messages: (stryMutAct_9fa48("5063") ? messages.length <= 0 : stryMutAct_9fa48("5062") ? messages.length >= 0 : stryMutAct_9fa48("5061") ? false : stryMutAct_9fa48("5060") ? true : (stryCov_9fa48("5060", "5061", "5062", "5063"), messages.length > 0)) ? messages : stryMutAct_9fa48("5064") ? [] : (stryCov_9fa48("5064"), [stryMutAct_9fa48("5065") ? "" : (stryCov_9fa48("5065"), "rejected by the service")])
        });
      }
    });
    return stryMutAct_9fa48("5066") ? {} : (stryCov_9fa48("5066"), {
      taskId: taskIdOf(body),
      validUsersCount: count(pick(body, VALID_COUNT_NAMES)),
      invalidUsersCount: count(pick(body, INVALID_COUNT_NAMES)),
      rowErrors
    });
  }
}

/** Whether a 400 answer is the row-level "no valid row" rejection rather than a broken request. */
export function isNoValidRowAnswer(answer: UploadAnswer): boolean {
  if (stryMutAct_9fa48("5067")) {
    {}
  } else {
    stryCov_9fa48("5067");
    return stryMutAct_9fa48("5070") ? answer.taskId === undefined || answer.rowErrors.length > 0 || answer.validUsersCount === 0 : stryMutAct_9fa48("5069") ? false : stryMutAct_9fa48("5068") ? true : (stryCov_9fa48("5068", "5069", "5070"), (stryMutAct_9fa48("5072") ? answer.taskId !== undefined : stryMutAct_9fa48("5071") ? true : (stryCov_9fa48("5071", "5072"), answer.taskId === undefined)) && (stryMutAct_9fa48("5074") ? answer.rowErrors.length > 0 && answer.validUsersCount === 0 : stryMutAct_9fa48("5073") ? true : (stryCov_9fa48("5073", "5074"), (stryMutAct_9fa48("5077") ? answer.rowErrors.length <= 0 : stryMutAct_9fa48("5076") ? answer.rowErrors.length >= 0 : stryMutAct_9fa48("5075") ? false : (stryCov_9fa48("5075", "5076", "5077"), answer.rowErrors.length > 0)) || (stryMutAct_9fa48("5079") ? answer.validUsersCount !== 0 : stryMutAct_9fa48("5078") ? false : (stryCov_9fa48("5078", "5079"), answer.validUsersCount === 0)))));
  }
}