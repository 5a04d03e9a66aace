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
import * as z from "zod";

// Bulk operations (`assign|unassign|link --from-csv`, docs/cli-contract.md "Bulk operations";
// issue 16 item 1): the pure rules — the file's columns, each row's checks, duplicate pairs,
// the plan, and the manifest that records each finished row. No network, clock or files here.

export const BULK_COMMANDS = ["assign", "unassign", "link"] as const;
export type BulkCommand = (typeof BULK_COMMANDS)[number];
export const BULK_COLUMNS = ["userId", "simulationId"] as const;
export interface BulkRow {
  /** Spreadsheet row number (header = 1). */
  row: number;
  userId: string;
  simulationId: string;
  /** Every cell as read, for the errors file (original columns kept). */
  cells: string[];
}
export interface BulkProblem {
  row: number;
  field: string;
  message: string;
}
export interface BulkHeader {
  /** Column index of userId and simulationId. */
  userId: number;
  simulationId: number;
  /** Header names (canonical for the two columns), for the errors file. */
  names: string[];
}

/**
 * Checks the rows of a file in order: both ids present (trimmed), the row as wide as the
 * header, each (userId, simulationId) pair once — the later row is the error and names the
 * first. Blank rows are skipped.
 */
export class BulkRowChecker {
  readonly rows: BulkRow[] = stryMutAct_9fa48("1200") ? ["Stryker was here"] : (stryCov_9fa48("1200"), []);
  readonly problems: BulkProblem[] = stryMutAct_9fa48("1201") ? ["Stryker was here"] : (stryCov_9fa48("1201"), []);
  /** The cells of invalid rows, for the errors file. */
  readonly invalidCells = new Map<number, string[]>();
  private readonly seen = new Map<string, number>();
  constructor(private readonly header: BulkHeader) {}
  add(cells: readonly string[], row: number): void {
    if (stryMutAct_9fa48("1202")) {
      {}
    } else {
      stryCov_9fa48("1202");
      if (stryMutAct_9fa48("1205") ? cells.some(c => c.trim() === "") : stryMutAct_9fa48("1204") ? false : stryMutAct_9fa48("1203") ? true : (stryCov_9fa48("1203", "1204", "1205"), cells.every(stryMutAct_9fa48("1206") ? () => undefined : (stryCov_9fa48("1206"), c => stryMutAct_9fa48("1209") ? c.trim() !== "" : stryMutAct_9fa48("1208") ? false : stryMutAct_9fa48("1207") ? true : (stryCov_9fa48("1207", "1208", "1209"), (stryMutAct_9fa48("1210") ? c : (stryCov_9fa48("1210"), c.trim())) === (stryMutAct_9fa48("1211") ? "Stryker was here!" : (stryCov_9fa48("1211"), ""))))))) return;
      const before = this.problems.length;
      if (stryMutAct_9fa48("1214") ? cells.length === this.header.names.length : stryMutAct_9fa48("1213") ? false : stryMutAct_9fa48("1212") ? true : (stryCov_9fa48("1212", "1213", "1214"), cells.length !== this.header.names.length)) {
        if (stryMutAct_9fa48("1215")) {
          {}
        } else {
          stryCov_9fa48("1215");
          this.problems.push(stryMutAct_9fa48("1216") ? {} : (stryCov_9fa48("1216"), {
            row,
            field: stryMutAct_9fa48("1217") ? "" : (stryCov_9fa48("1217"), "(row)"),
            message: stryMutAct_9fa48("1218") ? `` : (stryCov_9fa48("1218"), `has ${cells.length} cells, the header has ${this.header.names.length}`)
          }));
        }
      }
      const userId = stryMutAct_9fa48("1219") ? cells[this.header.userId] ?? "" : (stryCov_9fa48("1219"), (stryMutAct_9fa48("1220") ? cells[this.header.userId] && "" : (stryCov_9fa48("1220"), cells[this.header.userId] ?? (stryMutAct_9fa48("1221") ? "Stryker was here!" : (stryCov_9fa48("1221"), "")))).trim());
      const simulationId = stryMutAct_9fa48("1222") ? cells[this.header.simulationId] ?? "" : (stryCov_9fa48("1222"), (stryMutAct_9fa48("1223") ? cells[this.header.simulationId] && "" : (stryCov_9fa48("1223"), cells[this.header.simulationId] ?? (stryMutAct_9fa48("1224") ? "Stryker was here!" : (stryCov_9fa48("1224"), "")))).trim());
      if (stryMutAct_9fa48("1227") ? userId !== "" : stryMutAct_9fa48("1226") ? false : stryMutAct_9fa48("1225") ? true : (stryCov_9fa48("1225", "1226", "1227"), userId === (stryMutAct_9fa48("1228") ? "Stryker was here!" : (stryCov_9fa48("1228"), "")))) this.problems.push(stryMutAct_9fa48("1229") ? {} : (stryCov_9fa48("1229"), {
        row,
        field: stryMutAct_9fa48("1230") ? "" : (stryCov_9fa48("1230"), "userId"),
        message: stryMutAct_9fa48("1231") ? "" : (stryCov_9fa48("1231"), "is empty")
      }));
      if (stryMutAct_9fa48("1234") ? simulationId !== "" : stryMutAct_9fa48("1233") ? false : stryMutAct_9fa48("1232") ? true : (stryCov_9fa48("1232", "1233", "1234"), simulationId === (stryMutAct_9fa48("1235") ? "Stryker was here!" : (stryCov_9fa48("1235"), "")))) this.problems.push(stryMutAct_9fa48("1236") ? {} : (stryCov_9fa48("1236"), {
        row,
        field: stryMutAct_9fa48("1237") ? "" : (stryCov_9fa48("1237"), "simulationId"),
        message: stryMutAct_9fa48("1238") ? "" : (stryCov_9fa48("1238"), "is empty")
      }));
      if (stryMutAct_9fa48("1241") ? userId !== "" || simulationId !== "" : stryMutAct_9fa48("1240") ? false : stryMutAct_9fa48("1239") ? true : (stryCov_9fa48("1239", "1240", "1241"), (stryMutAct_9fa48("1243") ? userId === "" : stryMutAct_9fa48("1242") ? true : (stryCov_9fa48("1242", "1243"), userId !== (stryMutAct_9fa48("1244") ? "Stryker was here!" : (stryCov_9fa48("1244"), "")))) && (stryMutAct_9fa48("1246") ? simulationId === "" : stryMutAct_9fa48("1245") ? true : (stryCov_9fa48("1245", "1246"), simulationId !== (stryMutAct_9fa48("1247") ? "Stryker was here!" : (stryCov_9fa48("1247"), "")))))) {
        if (stryMutAct_9fa48("1248")) {
          {}
        } else {
          stryCov_9fa48("1248");
          const key = JSON.stringify(stryMutAct_9fa48("1249") ? [] : (stryCov_9fa48("1249"), [userId, simulationId]));
          const first = this.seen.get(key);
          if (stryMutAct_9fa48("1252") ? first === undefined : stryMutAct_9fa48("1251") ? false : stryMutAct_9fa48("1250") ? true : (stryCov_9fa48("1250", "1251", "1252"), first !== undefined)) {
            if (stryMutAct_9fa48("1253")) {
              {}
            } else {
              stryCov_9fa48("1253");
              this.problems.push(stryMutAct_9fa48("1254") ? {} : (stryCov_9fa48("1254"), {
                row,
                field: stryMutAct_9fa48("1255") ? "" : (stryCov_9fa48("1255"), "(row)"),
                message: stryMutAct_9fa48("1256") ? `` : (stryCov_9fa48("1256"), `repeats the pair ${userId} / ${simulationId} of row ${first}`)
              }));
            }
          } else {
            if (stryMutAct_9fa48("1257")) {
              {}
            } else {
              stryCov_9fa48("1257");
              this.seen.set(key, row);
            }
          }
        }
      }
      if (stryMutAct_9fa48("1260") ? this.problems.length !== before : stryMutAct_9fa48("1259") ? false : stryMutAct_9fa48("1258") ? true : (stryCov_9fa48("1258", "1259", "1260"), this.problems.length === before)) this.rows.push(stryMutAct_9fa48("1261") ? {} : (stryCov_9fa48("1261"), {
        row,
        userId,
        simulationId,
        cells: stryMutAct_9fa48("1262") ? cells : (stryCov_9fa48("1262"), cells.slice())
      }));else this.invalidCells.set(row, stryMutAct_9fa48("1263") ? cells : (stryCov_9fa48("1263"), cells.slice()));
    }
  }
}
export interface BulkPlan {
  command: BulkCommand;
  rows: number;
  users: number;
  simulations: number;
  /** Rows a manifest records as finished (skipped by --resume). */
  finished: number;
  /** Requests this run will send: one per unfinished row, plus (link) one token per distinct user. */
  requests: number;
}
export function planBulk(command: BulkCommand, rows: readonly BulkRow[], finishedRows: ReadonlySet<number>): BulkPlan {
  if (stryMutAct_9fa48("1264")) {
    {}
  } else {
    stryCov_9fa48("1264");
    const pending = stryMutAct_9fa48("1265") ? rows : (stryCov_9fa48("1265"), rows.filter(stryMutAct_9fa48("1266") ? () => undefined : (stryCov_9fa48("1266"), r => stryMutAct_9fa48("1267") ? finishedRows.has(r.row) : (stryCov_9fa48("1267"), !finishedRows.has(r.row)))));
    // link: a token for every user of the output, finished rows included (their links need a
    // fresh one: tokens are never stored).
    const tokenUsers = (stryMutAct_9fa48("1270") ? command !== "link" : stryMutAct_9fa48("1269") ? false : stryMutAct_9fa48("1268") ? true : (stryCov_9fa48("1268", "1269", "1270"), command === (stryMutAct_9fa48("1271") ? "" : (stryCov_9fa48("1271"), "link")))) ? new Set(rows.map(stryMutAct_9fa48("1272") ? () => undefined : (stryCov_9fa48("1272"), r => r.userId))).size : 0;
    return stryMutAct_9fa48("1273") ? {} : (stryCov_9fa48("1273"), {
      command,
      rows: rows.length,
      users: new Set(rows.map(stryMutAct_9fa48("1274") ? () => undefined : (stryCov_9fa48("1274"), r => r.userId))).size,
      simulations: new Set(rows.map(stryMutAct_9fa48("1275") ? () => undefined : (stryCov_9fa48("1275"), r => r.simulationId))).size,
      finished: stryMutAct_9fa48("1276") ? rows.length + pending.length : (stryCov_9fa48("1276"), rows.length - pending.length),
      requests: stryMutAct_9fa48("1277") ? pending.length - tokenUsers : (stryCov_9fa48("1277"), pending.length + tokenUsers)
    });
  }
}

// --- the manifest ------------------------------------------------------------------------

export const BULK_MANIFEST_VERSION = 1;

/** One finished row. `deepLink` never carries a token; a link's token is never stored. */
export const BulkManifestRow = z.object(stryMutAct_9fa48("1278") ? {} : (stryCov_9fa48("1278"), {
  status: z.enum(stryMutAct_9fa48("1279") ? [] : (stryCov_9fa48("1279"), [stryMutAct_9fa48("1280") ? "" : (stryCov_9fa48("1280"), "ok"), stryMutAct_9fa48("1281") ? "" : (stryCov_9fa48("1281"), "failed")])),
  error: z.string().optional(),
  deepLink: z.string().optional(),
  at: z.string()
}));
export type BulkManifestRow = z.infer<typeof BulkManifestRow>;
export const BulkManifest = z.object(stryMutAct_9fa48("1282") ? {} : (stryCov_9fa48("1282"), {
  version: z.literal(BULK_MANIFEST_VERSION),
  command: z.enum(BULK_COMMANDS),
  /** SHA-256 of the CSV's bytes: a changed file is never resumed. */
  sha256: z.string(),
  organizationId: z.string(),
  baseUrl: z.string(),
  /** link --assign takes its deep links from the assignment. */
  assign: z.boolean().optional(),
  startedAt: z.string(),
  updatedAt: z.string(),
  /** Keyed by spreadsheet row number. */
  rows: z.record(z.string(), BulkManifestRow)
}));
export type BulkManifest = z.infer<typeof BulkManifest>;

/** `cohort.csv` → `cohort.link.json` (beside it, like users import's `cohort.import.json`). */
export function bulkManifestPath(csvPath: string, command: BulkCommand): string {
  if (stryMutAct_9fa48("1283")) {
    {}
  } else {
    stryCov_9fa48("1283");
    return stryMutAct_9fa48("1284") ? `` : (stryCov_9fa48("1284"), `${csvPath.replace(stryMutAct_9fa48("1285") ? /\.csv/i : (stryCov_9fa48("1285"), /\.csv$/i), stryMutAct_9fa48("1286") ? "Stryker was here!" : (stryCov_9fa48("1286"), ""))}.${command}.json`);
  }
}
export function bulkErrorsPath(csvPath: string): string {
  if (stryMutAct_9fa48("1287")) {
    {}
  } else {
    stryCov_9fa48("1287");
    return stryMutAct_9fa48("1288") ? `` : (stryCov_9fa48("1288"), `${csvPath.replace(stryMutAct_9fa48("1289") ? /\.csv/i : (stryCov_9fa48("1289"), /\.csv$/i), stryMutAct_9fa48("1290") ? "Stryker was here!" : (stryCov_9fa48("1290"), ""))}.errors.csv`);
  }
}
export function parseBulkManifest(text: string): BulkManifest | undefined {
  if (stryMutAct_9fa48("1291")) {
    {}
  } else {
    stryCov_9fa48("1291");
    try {
      if (stryMutAct_9fa48("1292")) {
        {}
      } else {
        stryCov_9fa48("1292");
        const parsed = BulkManifest.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : undefined;
      }
    } catch {
      if (stryMutAct_9fa48("1293")) {
        {}
      } else {
        stryCov_9fa48("1293");
        return undefined;
      }
    }
  }
}
export type BulkStart = {
  kind: "fresh";
} | {
  kind: "resume";
  manifest: BulkManifest;
} | {
  kind: "refuse";
  message: string;
  hint: string;
};

/**
 * What a run does with an existing manifest (the users-import rules, docs/cli-contract.md
 * "Concurrency", README): without --resume, a manifest of the same file with finished rows
 * is refused so that nothing is sent twice by accident; a manifest of another version of
 * the file is replaced. --resume needs a manifest of this very file, command, organization
 * and service.
 */
export function decideBulkStart(existing: BulkManifest | undefined | "unreadable", current: {
  command: BulkCommand;
  sha256: string;
  organizationId: string;
  baseUrl: string;
  assign: boolean;
}, resume: boolean, manifestPath: string): BulkStart {
  if (stryMutAct_9fa48("1294")) {
    {}
  } else {
    stryCov_9fa48("1294");
    if (stryMutAct_9fa48("1297") ? existing === undefined && existing === "unreadable" : stryMutAct_9fa48("1296") ? false : stryMutAct_9fa48("1295") ? true : (stryCov_9fa48("1295", "1296", "1297"), (stryMutAct_9fa48("1299") ? existing !== undefined : stryMutAct_9fa48("1298") ? false : (stryCov_9fa48("1298", "1299"), existing === undefined)) || (stryMutAct_9fa48("1301") ? existing !== "unreadable" : stryMutAct_9fa48("1300") ? false : (stryCov_9fa48("1300", "1301"), existing === (stryMutAct_9fa48("1302") ? "" : (stryCov_9fa48("1302"), "unreadable")))))) {
      if (stryMutAct_9fa48("1303")) {
        {}
      } else {
        stryCov_9fa48("1303");
        if (stryMutAct_9fa48("1306") ? false : stryMutAct_9fa48("1305") ? true : stryMutAct_9fa48("1304") ? resume : (stryCov_9fa48("1304", "1305", "1306"), !resume)) return stryMutAct_9fa48("1307") ? {} : (stryCov_9fa48("1307"), {
          kind: stryMutAct_9fa48("1308") ? "" : (stryCov_9fa48("1308"), "fresh")
        });
        return stryMutAct_9fa48("1309") ? {} : (stryCov_9fa48("1309"), {
          kind: stryMutAct_9fa48("1310") ? "" : (stryCov_9fa48("1310"), "refuse"),
          message: stryMutAct_9fa48("1311") ? `` : (stryCov_9fa48("1311"), `--resume: ${(stryMutAct_9fa48("1314") ? existing !== "unreadable" : stryMutAct_9fa48("1313") ? false : stryMutAct_9fa48("1312") ? true : (stryCov_9fa48("1312", "1313", "1314"), existing === (stryMutAct_9fa48("1315") ? "" : (stryCov_9fa48("1315"), "unreadable")))) ? stryMutAct_9fa48("1316") ? `` : (stryCov_9fa48("1316"), `${manifestPath} is not a manifest simadmin can read`) : stryMutAct_9fa48("1317") ? `` : (stryCov_9fa48("1317"), `there is no ${manifestPath} to resume from`)}`),
          hint: stryMutAct_9fa48("1318") ? "" : (stryCov_9fa48("1318"), "run the command without --resume to start")
        });
      }
    }
    const sameFile = stryMutAct_9fa48("1321") ? existing.sha256 !== current.sha256 : stryMutAct_9fa48("1320") ? false : stryMutAct_9fa48("1319") ? true : (stryCov_9fa48("1319", "1320", "1321"), existing.sha256 === current.sha256);
    const finished = Object.keys(existing.rows).length;
    if (stryMutAct_9fa48("1324") ? false : stryMutAct_9fa48("1323") ? true : stryMutAct_9fa48("1322") ? resume : (stryCov_9fa48("1322", "1323", "1324"), !resume)) {
      if (stryMutAct_9fa48("1325")) {
        {}
      } else {
        stryCov_9fa48("1325");
        if (stryMutAct_9fa48("1328") ? !sameFile && finished === 0 : stryMutAct_9fa48("1327") ? false : stryMutAct_9fa48("1326") ? true : (stryCov_9fa48("1326", "1327", "1328"), (stryMutAct_9fa48("1329") ? sameFile : (stryCov_9fa48("1329"), !sameFile)) || (stryMutAct_9fa48("1331") ? finished !== 0 : stryMutAct_9fa48("1330") ? false : (stryCov_9fa48("1330", "1331"), finished === 0)))) return stryMutAct_9fa48("1332") ? {} : (stryCov_9fa48("1332"), {
          kind: stryMutAct_9fa48("1333") ? "" : (stryCov_9fa48("1333"), "fresh")
        });
        return stryMutAct_9fa48("1334") ? {} : (stryCov_9fa48("1334"), {
          kind: stryMutAct_9fa48("1335") ? "" : (stryCov_9fa48("1335"), "refuse"),
          message: stryMutAct_9fa48("1336") ? `` : (stryCov_9fa48("1336"), `${manifestPath} shows ${finished} row${(stryMutAct_9fa48("1339") ? finished !== 1 : stryMutAct_9fa48("1338") ? false : stryMutAct_9fa48("1337") ? true : (stryCov_9fa48("1337", "1338", "1339"), finished === 1)) ? stryMutAct_9fa48("1340") ? "Stryker was here!" : (stryCov_9fa48("1340"), "") : stryMutAct_9fa48("1341") ? "" : (stryCov_9fa48("1341"), "s")} of this file already done by an earlier run; nothing was sent`),
          hint: stryMutAct_9fa48("1342") ? "" : (stryCov_9fa48("1342"), "add --resume to continue without repeating them, or remove the manifest to start over")
        });
      }
    }
    if (stryMutAct_9fa48("1345") ? false : stryMutAct_9fa48("1344") ? true : stryMutAct_9fa48("1343") ? sameFile : (stryCov_9fa48("1343", "1344", "1345"), !sameFile)) {
      if (stryMutAct_9fa48("1346")) {
        {}
      } else {
        stryCov_9fa48("1346");
        return stryMutAct_9fa48("1347") ? {} : (stryCov_9fa48("1347"), {
          kind: stryMutAct_9fa48("1348") ? "" : (stryCov_9fa48("1348"), "refuse"),
          message: stryMutAct_9fa48("1349") ? `` : (stryCov_9fa48("1349"), `--resume: the file changed since ${manifestPath} was written; nothing was sent`),
          hint: stryMutAct_9fa48("1350") ? "" : (stryCov_9fa48("1350"), "resume with the file as it was, or remove the manifest to start over")
        });
      }
    }
    if (stryMutAct_9fa48("1353") ? existing.organizationId !== current.organizationId && existing.baseUrl !== current.baseUrl : stryMutAct_9fa48("1352") ? false : stryMutAct_9fa48("1351") ? true : (stryCov_9fa48("1351", "1352", "1353"), (stryMutAct_9fa48("1355") ? existing.organizationId === current.organizationId : stryMutAct_9fa48("1354") ? false : (stryCov_9fa48("1354", "1355"), existing.organizationId !== current.organizationId)) || (stryMutAct_9fa48("1357") ? existing.baseUrl === current.baseUrl : stryMutAct_9fa48("1356") ? false : (stryCov_9fa48("1356", "1357"), existing.baseUrl !== current.baseUrl)))) {
      if (stryMutAct_9fa48("1358")) {
        {}
      } else {
        stryCov_9fa48("1358");
        return stryMutAct_9fa48("1359") ? {} : (stryCov_9fa48("1359"), {
          kind: stryMutAct_9fa48("1360") ? "" : (stryCov_9fa48("1360"), "refuse"),
          message: stryMutAct_9fa48("1361") ? `` : (stryCov_9fa48("1361"), `--resume: ${manifestPath} was written for organization ${existing.organizationId} at ${existing.baseUrl}; nothing was sent`),
          hint: stryMutAct_9fa48("1362") ? "" : (stryCov_9fa48("1362"), "use the same --org and base URL, or remove the manifest to start over")
        });
      }
    }
    if (stryMutAct_9fa48("1365") ? (existing.assign ?? false) === current.assign : stryMutAct_9fa48("1364") ? false : stryMutAct_9fa48("1363") ? true : (stryCov_9fa48("1363", "1364", "1365"), (stryMutAct_9fa48("1366") ? existing.assign && false : (stryCov_9fa48("1366"), existing.assign ?? (stryMutAct_9fa48("1367") ? true : (stryCov_9fa48("1367"), false)))) !== current.assign)) {
      if (stryMutAct_9fa48("1368")) {
        {}
      } else {
        stryCov_9fa48("1368");
        return stryMutAct_9fa48("1369") ? {} : (stryCov_9fa48("1369"), {
          kind: stryMutAct_9fa48("1370") ? "" : (stryCov_9fa48("1370"), "refuse"),
          message: stryMutAct_9fa48("1371") ? `` : (stryCov_9fa48("1371"), `--resume: ${manifestPath} was written ${existing.assign ? stryMutAct_9fa48("1372") ? "" : (stryCov_9fa48("1372"), "with") : stryMutAct_9fa48("1373") ? "" : (stryCov_9fa48("1373"), "without")} --assign; nothing was sent`),
          hint: stryMutAct_9fa48("1374") ? `` : (stryCov_9fa48("1374"), `run it ${existing.assign ? stryMutAct_9fa48("1375") ? "" : (stryCov_9fa48("1375"), "with") : stryMutAct_9fa48("1376") ? "" : (stryCov_9fa48("1376"), "without")} --assign, as before`)
        });
      }
    }
    return stryMutAct_9fa48("1377") ? {} : (stryCov_9fa48("1377"), {
      kind: stryMutAct_9fa48("1378") ? "" : (stryCov_9fa48("1378"), "resume"),
      manifest: existing
    });
  }
}