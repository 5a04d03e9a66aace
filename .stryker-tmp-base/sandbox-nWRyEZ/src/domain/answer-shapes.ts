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
import { isPlainObject, type JsonRecord } from "./records.js";

// Answers whose envelope the spec leaves open, read by shape (issue 21 item 3;
// docs/cli-contract.md "Records of unknown shape"). The spec's own name is tried first
// (`simulations`, `completionData`), then any other envelope a service may choose: a bare
// array, `{results}`, `{data}`, `{attempts}`… — the one list of objects in the answer, at the
// top level or one level down (`{data: {items: […]}}`). Pure: no I/O.

function isListOfObjects(value: unknown): value is JsonRecord[] {
  if (stryMutAct_9fa48("1035")) {
    {}
  } else {
    stryCov_9fa48("1035");
    return stryMutAct_9fa48("1038") ? Array.isArray(value) || value.every(isPlainObject) : stryMutAct_9fa48("1037") ? false : stryMutAct_9fa48("1036") ? true : (stryCov_9fa48("1036", "1037", "1038"), Array.isArray(value) && (stryMutAct_9fa48("1039") ? value.some(isPlainObject) : (stryCov_9fa48("1039"), value.every(isPlainObject))));
  }
}
export type ListLookup = {
  list: JsonRecord[];
} | {
  problem: string;
};

/**
 * The list of items in an answer: a bare array; the field named `preferred`; else the one
 * array of objects among the fields (an empty array counts only when it is the only array);
 * else the same one level down.
 */
export function listInAnswer(body: unknown, preferred: string): ListLookup {
  if (stryMutAct_9fa48("1040")) {
    {}
  } else {
    stryCov_9fa48("1040");
    if (stryMutAct_9fa48("1042") ? false : stryMutAct_9fa48("1041") ? true : (stryCov_9fa48("1041", "1042"), isListOfObjects(body))) return stryMutAct_9fa48("1043") ? {} : (stryCov_9fa48("1043"), {
      list: body
    });
    if (stryMutAct_9fa48("1046") ? false : stryMutAct_9fa48("1045") ? true : stryMutAct_9fa48("1044") ? isPlainObject(body) : (stryCov_9fa48("1044", "1045", "1046"), !isPlainObject(body))) return stryMutAct_9fa48("1047") ? {} : (stryCov_9fa48("1047"), {
      problem: Array.isArray(body) ? stryMutAct_9fa48("1048") ? "" : (stryCov_9fa48("1048"), "a list of non-objects") : stryMutAct_9fa48("1049") ? `` : (stryCov_9fa48("1049"), `not a list (${typeof body})`)
    });
    const named = body[preferred];
    if (stryMutAct_9fa48("1051") ? false : stryMutAct_9fa48("1050") ? true : (stryCov_9fa48("1050", "1051"), isListOfObjects(named))) return stryMutAct_9fa48("1052") ? {} : (stryCov_9fa48("1052"), {
      list: named
    });
    const atTop = onlyList(Object.values(body));
    if (stryMutAct_9fa48("1055") ? atTop === undefined : stryMutAct_9fa48("1054") ? false : stryMutAct_9fa48("1053") ? true : (stryCov_9fa48("1053", "1054", "1055"), atTop !== undefined)) return atTop;
    const nested = stryMutAct_9fa48("1057") ? Object.values(body).map(inner => onlyList(Object.values(inner))).filter((found): found is ListLookup => found !== undefined) : stryMutAct_9fa48("1056") ? Object.values(body).filter(isPlainObject).map(inner => onlyList(Object.values(inner))) : (stryCov_9fa48("1056", "1057"), Object.values(body).filter(isPlainObject).map(stryMutAct_9fa48("1058") ? () => undefined : (stryCov_9fa48("1058"), inner => onlyList(Object.values(inner)))).filter(stryMutAct_9fa48("1059") ? () => undefined : (stryCov_9fa48("1059"), (found): found is ListLookup => stryMutAct_9fa48("1062") ? found === undefined : stryMutAct_9fa48("1061") ? false : stryMutAct_9fa48("1060") ? true : (stryCov_9fa48("1060", "1061", "1062"), found !== undefined))));
    if (stryMutAct_9fa48("1065") ? nested.length === 1 || nested[0] : stryMutAct_9fa48("1064") ? false : stryMutAct_9fa48("1063") ? true : (stryCov_9fa48("1063", "1064", "1065"), (stryMutAct_9fa48("1067") ? nested.length !== 1 : stryMutAct_9fa48("1066") ? true : (stryCov_9fa48("1066", "1067"), nested.length === 1)) && nested[0])) return nested[0];
    return stryMutAct_9fa48("1068") ? {} : (stryCov_9fa48("1068"), {
      problem: (stryMutAct_9fa48("1072") ? nested.length <= 1 : stryMutAct_9fa48("1071") ? nested.length >= 1 : stryMutAct_9fa48("1070") ? false : stryMutAct_9fa48("1069") ? true : (stryCov_9fa48("1069", "1070", "1071", "1072"), nested.length > 1)) ? stryMutAct_9fa48("1073") ? "" : (stryCov_9fa48("1073"), "several lists") : stryMutAct_9fa48("1074") ? "" : (stryCov_9fa48("1074"), "no list of items")
    });
  }
}

/** The one list among these values; undefined when there is none; a problem when there are several filled ones. */
function onlyList(values: unknown[]): ListLookup | undefined {
  if (stryMutAct_9fa48("1075")) {
    {}
  } else {
    stryCov_9fa48("1075");
    const lists = stryMutAct_9fa48("1076") ? values : (stryCov_9fa48("1076"), values.filter(isListOfObjects));
    const filled = stryMutAct_9fa48("1077") ? lists : (stryCov_9fa48("1077"), lists.filter(stryMutAct_9fa48("1078") ? () => undefined : (stryCov_9fa48("1078"), l => stryMutAct_9fa48("1082") ? l.length <= 0 : stryMutAct_9fa48("1081") ? l.length >= 0 : stryMutAct_9fa48("1080") ? false : stryMutAct_9fa48("1079") ? true : (stryCov_9fa48("1079", "1080", "1081", "1082"), l.length > 0))));
    if (stryMutAct_9fa48("1085") ? filled.length === 1 || filled[0] : stryMutAct_9fa48("1084") ? false : stryMutAct_9fa48("1083") ? true : (stryCov_9fa48("1083", "1084", "1085"), (stryMutAct_9fa48("1087") ? filled.length !== 1 : stryMutAct_9fa48("1086") ? true : (stryCov_9fa48("1086", "1087"), filled.length === 1)) && filled[0])) return stryMutAct_9fa48("1088") ? {} : (stryCov_9fa48("1088"), {
      list: filled[0]
    });
    if (stryMutAct_9fa48("1092") ? filled.length <= 1 : stryMutAct_9fa48("1091") ? filled.length >= 1 : stryMutAct_9fa48("1090") ? false : stryMutAct_9fa48("1089") ? true : (stryCov_9fa48("1089", "1090", "1091", "1092"), filled.length > 1)) return stryMutAct_9fa48("1093") ? {} : (stryCov_9fa48("1093"), {
      problem: stryMutAct_9fa48("1094") ? `` : (stryCov_9fa48("1094"), `several lists (${filled.length})`)
    });
    if (stryMutAct_9fa48("1098") ? lists.length < 1 : stryMutAct_9fa48("1097") ? lists.length > 1 : stryMutAct_9fa48("1096") ? false : stryMutAct_9fa48("1095") ? true : (stryCov_9fa48("1095", "1096", "1097", "1098"), lists.length >= 1)) return stryMutAct_9fa48("1099") ? {} : (stryCov_9fa48("1099"), {
      list: stryMutAct_9fa48("1100") ? ["Stryker was here"] : (stryCov_9fa48("1100"), [])
    }); // only empty lists: nothing to show, whichever it is
    return undefined;
  }
}

/** An http(s) URL, the only kind of deep link a browser opens. */
export function isHttpUrl(value: unknown): value is string {
  if (stryMutAct_9fa48("1101")) {
    {}
  } else {
    stryCov_9fa48("1101");
    if (stryMutAct_9fa48("1104") ? typeof value === "string" : stryMutAct_9fa48("1103") ? false : stryMutAct_9fa48("1102") ? true : (stryCov_9fa48("1102", "1103", "1104"), typeof value !== (stryMutAct_9fa48("1105") ? "" : (stryCov_9fa48("1105"), "string")))) return stryMutAct_9fa48("1106") ? true : (stryCov_9fa48("1106"), false);
    try {
      if (stryMutAct_9fa48("1107")) {
        {}
      } else {
        stryCov_9fa48("1107");
        const url = new URL(value);
        return stryMutAct_9fa48("1110") ? url.protocol === "https:" && url.protocol === "http:" : stryMutAct_9fa48("1109") ? false : stryMutAct_9fa48("1108") ? true : (stryCov_9fa48("1108", "1109", "1110"), (stryMutAct_9fa48("1112") ? url.protocol !== "https:" : stryMutAct_9fa48("1111") ? false : (stryCov_9fa48("1111", "1112"), url.protocol === (stryMutAct_9fa48("1113") ? "" : (stryCov_9fa48("1113"), "https:")))) || (stryMutAct_9fa48("1115") ? url.protocol !== "http:" : stryMutAct_9fa48("1114") ? false : (stryCov_9fa48("1114", "1115"), url.protocol === (stryMutAct_9fa48("1116") ? "" : (stryCov_9fa48("1116"), "http:")))));
      }
    } catch {
      if (stryMutAct_9fa48("1117")) {
        {}
      } else {
        stryCov_9fa48("1117");
        return stryMutAct_9fa48("1118") ? true : (stryCov_9fa48("1118"), false);
      }
    }
  }
}
function urlsIn(object: JsonRecord): string[] {
  if (stryMutAct_9fa48("1119")) {
    {}
  } else {
    stryCov_9fa48("1119");
    const top = stryMutAct_9fa48("1120") ? Object.values(object) : (stryCov_9fa48("1120"), Object.values(object).filter(isHttpUrl));
    if (stryMutAct_9fa48("1124") ? top.length <= 0 : stryMutAct_9fa48("1123") ? top.length >= 0 : stryMutAct_9fa48("1122") ? false : stryMutAct_9fa48("1121") ? true : (stryCov_9fa48("1121", "1122", "1123", "1124"), top.length > 0)) return top;
    return stryMutAct_9fa48("1125") ? Object.values(object).flatMap(o => Object.values(o).filter(isHttpUrl)) : (stryCov_9fa48("1125"), Object.values(object).filter(isPlainObject).flatMap(stryMutAct_9fa48("1126") ? () => undefined : (stryCov_9fa48("1126"), o => stryMutAct_9fa48("1127") ? Object.values(o) : (stryCov_9fa48("1127"), Object.values(o).filter(isHttpUrl)))));
  }
}

/** Whether an entry of a list names this simulation (any string field equal to its id). */
function names(entry: JsonRecord, simulationId: string): boolean {
  if (stryMutAct_9fa48("1128")) {
    {}
  } else {
    stryCov_9fa48("1128");
    return stryMutAct_9fa48("1129") ? Object.values(entry).every(v => v === simulationId || isPlainObject(v) && Object.values(v).some(inner => inner === simulationId)) : (stryCov_9fa48("1129"), Object.values(entry).some(stryMutAct_9fa48("1130") ? () => undefined : (stryCov_9fa48("1130"), v => stryMutAct_9fa48("1133") ? v === simulationId && isPlainObject(v) && Object.values(v).some(inner => inner === simulationId) : stryMutAct_9fa48("1132") ? false : stryMutAct_9fa48("1131") ? true : (stryCov_9fa48("1131", "1132", "1133"), (stryMutAct_9fa48("1135") ? v !== simulationId : stryMutAct_9fa48("1134") ? false : (stryCov_9fa48("1134", "1135"), v === simulationId)) || (stryMutAct_9fa48("1137") ? isPlainObject(v) || Object.values(v).some(inner => inner === simulationId) : stryMutAct_9fa48("1136") ? false : (stryCov_9fa48("1136", "1137"), isPlainObject(v) && (stryMutAct_9fa48("1138") ? Object.values(v).every(inner => inner === simulationId) : (stryCov_9fa48("1138"), Object.values(v).some(stryMutAct_9fa48("1139") ? () => undefined : (stryCov_9fa48("1139"), inner => stryMutAct_9fa48("1142") ? inner !== simulationId : stryMutAct_9fa48("1141") ? false : stryMutAct_9fa48("1140") ? true : (stryCov_9fa48("1140", "1141", "1142"), inner === simulationId)))))))))));
  }
}
export type DeepLinkLookup = {
  url: string;
} | {
  problem: string;
};

/**
 * The deep link of `simulationId` in a deep-links answer (docs/service-spec.md §4.2: field
 * name not shown): a bare URL; an object with one URL-valued field (or one level down); or the
 * public documentation's list form `{"simulations": [{simulationId, deepLink}, …]}` — the
 * entry that names the asked simulation, its one URL.
 */
export function deepLinkIn(body: unknown, simulationId: string): DeepLinkLookup {
  if (stryMutAct_9fa48("1143")) {
    {}
  } else {
    stryCov_9fa48("1143");
    if (stryMutAct_9fa48("1145") ? false : stryMutAct_9fa48("1144") ? true : (stryCov_9fa48("1144", "1145"), isHttpUrl(body))) return stryMutAct_9fa48("1146") ? {} : (stryCov_9fa48("1146"), {
      url: body
    });
    const list = isListOfObjects(body) ? body : isPlainObject(body) ? Object.values(body).find(stryMutAct_9fa48("1147") ? () => undefined : (stryCov_9fa48("1147"), (v): v is JsonRecord[] => stryMutAct_9fa48("1150") ? isListOfObjects(v) || v.length > 0 : stryMutAct_9fa48("1149") ? false : stryMutAct_9fa48("1148") ? true : (stryCov_9fa48("1148", "1149", "1150"), isListOfObjects(v) && (stryMutAct_9fa48("1153") ? v.length <= 0 : stryMutAct_9fa48("1152") ? v.length >= 0 : stryMutAct_9fa48("1151") ? true : (stryCov_9fa48("1151", "1152", "1153"), v.length > 0))))) : undefined;
    if (stryMutAct_9fa48("1155") ? false : stryMutAct_9fa48("1154") ? true : (stryCov_9fa48("1154", "1155"), list)) {
      if (stryMutAct_9fa48("1156")) {
        {}
      } else {
        stryCov_9fa48("1156");
        const entries = stryMutAct_9fa48("1157") ? list : (stryCov_9fa48("1157"), list.filter(stryMutAct_9fa48("1158") ? () => undefined : (stryCov_9fa48("1158"), entry => names(entry, simulationId))));
        const chosen = (stryMutAct_9fa48("1161") ? entries.length !== 1 : stryMutAct_9fa48("1160") ? false : stryMutAct_9fa48("1159") ? true : (stryCov_9fa48("1159", "1160", "1161"), entries.length === 1)) ? entries[0] : (stryMutAct_9fa48("1164") ? list.length !== 1 : stryMutAct_9fa48("1163") ? false : stryMutAct_9fa48("1162") ? true : (stryCov_9fa48("1162", "1163", "1164"), list.length === 1)) ? list[0] : undefined;
        if (stryMutAct_9fa48("1167") ? false : stryMutAct_9fa48("1166") ? true : stryMutAct_9fa48("1165") ? chosen : (stryCov_9fa48("1165", "1166", "1167"), !chosen)) {
          if (stryMutAct_9fa48("1168")) {
            {}
          } else {
            stryCov_9fa48("1168");
            return stryMutAct_9fa48("1169") ? {} : (stryCov_9fa48("1169"), {
              problem: (stryMutAct_9fa48("1173") ? entries.length <= 1 : stryMutAct_9fa48("1172") ? entries.length >= 1 : stryMutAct_9fa48("1171") ? false : stryMutAct_9fa48("1170") ? true : (stryCov_9fa48("1170", "1171", "1172", "1173"), entries.length > 1)) ? stryMutAct_9fa48("1174") ? `` : (stryCov_9fa48("1174"), `${entries.length} entries for ${simulationId}`) : stryMutAct_9fa48("1175") ? `` : (stryCov_9fa48("1175"), `a list of ${list.length} simulations without ${simulationId}`)
            });
          }
        }
        const urls = urlsIn(chosen);
        const own = (stryMutAct_9fa48("1178") ? urls.length !== 1 : stryMutAct_9fa48("1177") ? false : stryMutAct_9fa48("1176") ? true : (stryCov_9fa48("1176", "1177", "1178"), urls.length === 1)) ? urls[0] : urls.find(stryMutAct_9fa48("1179") ? () => undefined : (stryCov_9fa48("1179"), u => u.includes(simulationId)));
        return own ? stryMutAct_9fa48("1180") ? {} : (stryCov_9fa48("1180"), {
          url: own
        }) : stryMutAct_9fa48("1181") ? {} : (stryCov_9fa48("1181"), {
          problem: stryMutAct_9fa48("1182") ? `` : (stryCov_9fa48("1182"), `no single deep-link URL in the entry of ${simulationId}`)
        });
      }
    }
    if (stryMutAct_9fa48("1184") ? false : stryMutAct_9fa48("1183") ? true : (stryCov_9fa48("1183", "1184"), isPlainObject(body))) {
      if (stryMutAct_9fa48("1185")) {
        {}
      } else {
        stryCov_9fa48("1185");
        const urls = urlsIn(body);
        if (stryMutAct_9fa48("1188") ? urls.length === 1 || urls[0] : stryMutAct_9fa48("1187") ? false : stryMutAct_9fa48("1186") ? true : (stryCov_9fa48("1186", "1187", "1188"), (stryMutAct_9fa48("1190") ? urls.length !== 1 : stryMutAct_9fa48("1189") ? true : (stryCov_9fa48("1189", "1190"), urls.length === 1)) && urls[0])) return stryMutAct_9fa48("1191") ? {} : (stryCov_9fa48("1191"), {
          url: urls[0]
        });
        if (stryMutAct_9fa48("1195") ? urls.length <= 1 : stryMutAct_9fa48("1194") ? urls.length >= 1 : stryMutAct_9fa48("1193") ? false : stryMutAct_9fa48("1192") ? true : (stryCov_9fa48("1192", "1193", "1194", "1195"), urls.length > 1)) return stryMutAct_9fa48("1196") ? {} : (stryCov_9fa48("1196"), {
          problem: stryMutAct_9fa48("1197") ? `` : (stryCov_9fa48("1197"), `${urls.length} URLs and no way to tell which is the deep link`)
        });
      }
    }
    return stryMutAct_9fa48("1198") ? {} : (stryCov_9fa48("1198"), {
      problem: stryMutAct_9fa48("1199") ? "" : (stryCov_9fa48("1199"), "no deep-link URL in the answer")
    });
  }
}