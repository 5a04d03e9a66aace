import { join } from "node:path";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import { createFakeClock } from "../../src/clock.js";
import { queryDuckDb } from "./duckdb.js";
import { runInProcess, type InProcessOptions } from "./in-process.js";

// `reports sync` in this process with no sandbox and no network (test/cli/reports-sync-scripted*):
// a client that answers each report window from the test's script (ServiceFakes,
// src/services.ts) and writes down the windows asked, and a database of the test's own.

/** "Today" in these tests: 2026-11-24 10:00 UTC. */
export const TODAY = Date.UTC(2026, 10, 24, 10);
export const DAY = 86_400_000;
export const SERVICE = "https://sim.example.com";

/** What the service answers for one window: a body's text, or an error thrown. */
export type Answer = string | Error;
export type Script = (kind: string, start: string, end: string) => Answer | Promise<Answer>;

/** Records as a report window's answer body. */
export const rows = (...records: unknown[]): string => JSON.stringify({ rows: records });

/** A client whose report windows answer from the script and which writes down each window asked. */
function scriptedClient(script: Script, onAsk?: (window: string) => void) {
  const asked: string[] = [];
  const api = {
    apiVersion: 2,
    postJsonStreaming: async (
      endpoint: Endpoint,
      body: { startDate: string; endDate: string },
      consume: (body: AsyncIterable<Uint8Array>) => Promise<unknown>,
    ) => {
      const kind = endpoint.path.slice("/report/".length);
      const window = `${kind} ${body.startDate}..${body.endDate}`;
      asked.push(window);
      onAsk?.(window);
      const answer = await script(kind, body.startDate, body.endDate);
      if (answer instanceof Error) throw answer;
      const bytes = Buffer.from(answer, "utf8");
      // In pieces of 7 bytes: a record cut anywhere must come out whole.
      return consume(
        (async function* () {
          for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
        })(),
      );
    },
  } as unknown as ApiClient;
  return { api, asked };
}

let counter = 0;

/** A database of its own (a DuckDB file under `dir` unless `db` is given) and the runs into it, on one fake clock. */
export function syncWorld(dir: string, options: { env?: Record<string, string>; db?: string } = {}) {
  const clock = createFakeClock(TODAY);
  const db = options.db ?? join(dir, `w${++counter}.duckdb`);
  const configDir = join(dir, `config-${++counter}`);
  const env = {
    SIMADMIN_BASE_URL: SERVICE,
    SIMADMIN_ORG: "org-1",
    SIMADMIN_API_KEY: "sk-test",
    SIMADMIN_CONFIG_DIR: configDir,
    ...options.env,
  };
  const run = async (
    args: string[],
    script: Script = () => rows(),
    extra: InProcessOptions & { onAsk?: (w: string) => void } = {},
  ) => {
    const { api, asked } = scriptedClient(script, extra.onAsk);
    const r = await runInProcess(["reports", "sync", "--db", db, ...args], { env, clock, fakes: { api }, ...extra });
    return { ...r, asked };
  };
  const query = (sql: string) => queryDuckDb(db, sql);
  return { clock, db, configDir, env, run, query };
}
