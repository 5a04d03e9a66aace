// Types for kill-points-lib.mjs, so that test/e2e/kill-points.test.ts can import it.
export declare const PHASES: readonly ["arrive", "mid-body", "sent", "answered", "relayed"];
export declare const SMTP_PHASES: readonly ["smtp-mail", "smtp-data", "smtp-accepted"];
export type Phase = (typeof PHASES)[number] | (typeof SMTP_PHASES)[number];
export interface KillPoint {
  /** The request (or, for an SMTP phase, the message), counted from 1, at which the run is killed. */
  request: number;
  phase: Phase;
}
export interface KillResult {
  point: KillPoint;
  /** Whether the run was still going when the point came (it was killed). */
  reached: boolean;
  steps: string[];
  violations: string[];
}
interface SandboxLike {
  baseUrl: string;
  org: string;
  keys: { full: string };
  requests: { path: string; status: number; body: unknown }[];
  close(): Promise<void>;
}
type StartSandbox = (options: Record<string, unknown>) => Promise<SandboxLike>;
export declare function syncKillPoint(options: {
  bin: string;
  startSandbox: (options: Record<string, unknown>) => Promise<SandboxLike & { state: { snapshot(): { tasks: unknown[] } } }>;
  point: KillPoint;
  /** A PostgreSQL database of its own (postgres://…): the run's state store. */
  stateUrl: string;
  /** Held batches are sent again even when the service has them (not checked first). */
  resendAlways?: boolean;
}): Promise<KillResult & { imported: number }>;
export declare function importKillPoint(options: {
  bin: string;
  startSandbox: StartSandbox;
  userCells: (i: number) => { cells: string[] };
  point: KillPoint;
}): Promise<KillResult>;
export declare function referenceReports(options: {
  bin: string;
  startSandbox: StartSandbox;
  range: { from: string; to: string };
}): Promise<{ files: Map<string, string>; requests: number }>;
export declare function reportsKillPoint(options: {
  bin: string;
  startSandbox: StartSandbox;
  point: KillPoint;
  reference: Map<string, string>;
  range: { from: string; to: string };
}): Promise<KillResult>;
export type SyncTarget = { kind: "duckdb" } | { kind: "postgres"; url: string };
/** 90 days ending today (UTC): 4 fixed windows per kind. */
export declare function syncSince(): string;
export declare function referenceSync(options: {
  bin: string;
  startSandbox: StartSandbox;
  target: SyncTarget;
  since: string;
}): Promise<{ counts: Map<string, { rows: number; meta: number | undefined }>; requests: number }>;
export declare function reportsSyncKillPoint(options: {
  bin: string;
  startSandbox: StartSandbox;
  point: KillPoint;
  target: SyncTarget;
  reference: Map<string, { rows: number; meta: number | undefined }>;
  since: string;
}): Promise<KillResult>;
export declare function progressKillPoint(options: {
  bin: string;
  startSandbox: StartSandbox;
  point: KillPoint;
  /** A PostgreSQL database of its own (postgres://…): the run's state store. */
  stateUrl: string;
}): Promise<KillResult>;
export declare function notifyKillPoint(options: {
  bin: string;
  startSandbox: StartSandbox;
  point: KillPoint;
  stateUrl: string;
  /** --connections of the killed run and the re-run (default 1: messages one after the other). */
  connections?: number;
}): Promise<KillResult & { ambiguous: number; unsentAmbiguous: number; unbegunAmbiguous: number }>;
