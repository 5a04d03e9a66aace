// @ts-nocheck
import { randomUUID } from "node:crypto";
import type { Seed, SeedApiKey, SeedAttempt, SeedSimulation } from "./seed.js";
import { USER_TOKEN_TTL_SECONDS, signUserToken, verifyUserToken, type TokenCheck } from "./tokens.js";
import type { ImportRow } from "./users-csv.js";
import { scriptedAttempts } from "./progress-script.js";

// Everything the sandbox knows, in memory only. Time comes from the injected clock, and
// bulk-import tasks advance by reading it (no timers), so tests move time instead of
// sleeping.

export interface SandboxUser {
  userId: string;
  organizationId: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  role: string;
  status: "ACTIVE" | "INACTIVE";
  teamName?: string;
  createdAt: string;
  /** Other optional fields given to user/create, answered back as they came. */
  fields: Record<string, unknown>;
}

export type AttemptStatus = "COMPLETED" | "STARTED" | "INTERRUPTED";

export interface Attempt extends SeedAttempt {
  /** Hidden from completion-data until the clock reaches this time (ms); lets --wait tests run on a fake clock. */
  availableAt?: number;
}

export interface AttemptInput {
  status: AttemptStatus | (string & {});
  executionId?: string;
  startedAt?: string | null;
  completedAt?: string | null;
  completionTime?: number | null;
  score?: number | null;
  symScore?: number | null;
  accuracyScore?: number | null;
  keywordScore?: number | null;
  clickScore?: number | null;
  sentimentScores?: Record<string, number> | null;
  availableAt?: number;
}

export type TaskStatus = "SCHEDULED" | "STARTED" | "COMPLETED" | "FAILED";

export interface TaskSummary {
  taskId: string;
  organizationId: string;
  status: TaskStatus;
  fileName: string | undefined;
  createdAt: string;
  /** Valid rows uploaded in this task (the ones it imports). */
  rowsUploaded: number;
  rows: ImportRow[];
}

export interface ImportTask {
  taskId: string;
  organizationId: string;
  fileName: string | undefined;
  createdAtMs: number;
  rows: ImportRow[];
  /** Set once the task has finished and its rows were applied (or not, when FAILED). */
  final?: "COMPLETED" | "FAILED";
}

/** The documented FAILED rule: a task fails when any of its rows has an email at this domain. */
export const FAILING_EMAIL_DOMAIN = "fail.example.com";

export interface SandboxStateOptions {
  now: () => number;
  appUrl: string;
  deepLinkQuery?: string;
  importStepMs: number;
  tokenSecret: Buffer;
  /**
   * When set, an unfinished (STARTED) attempt completes this long after completion-data was
   * first asked for it, so that `completion --wait` has something to wait for (issue 15
   * item 6). Off by default: tests that do not ask for it see the seed unchanged.
   */
  attemptCompletesAfterMs?: number;
  /** When set, pairs without recorded attempts follow a script over time (progress-script.ts). */
  scriptedAttemptStepMs?: number;
}

/**
 * What `--sandbox` keeps between runs (docs/cli-contract.md, Sandbox): everything a command
 * can change. The seed's organizations, keys and simulations are not in it.
 */
export interface SandboxSnapshot {
  version: 1;
  tokenSecret: string;
  users: SandboxUser[];
  attempts: Attempt[];
  assignments: string[][];
  tasks: ImportTask[];
  userCounter: number;
  executionCounter: number;
  firstPolls: [string, number][];
}

const key = (...parts: string[]): string => parts.join("\u0000");

export class SandboxState {
  readonly apiKeys = new Map<string, SeedApiKey>();
  private readonly organizations = new Map<string, { id: string; name: string }>();
  private users: SandboxUser[] = [];
  private readonly simulations: SeedSimulation[];
  private attempts: Attempt[];
  private readonly assignments = new Set<string>();
  private tasks: ImportTask[] = [];
  private userCounter = 1000;
  private executionCounter = 9000;
  /** When completion-data was first asked for (org, user, sim) — see attemptCompletesAfterMs. */
  private readonly firstPolls = new Map<string, number>();

  constructor(
    seed: Seed,
    private readonly options: SandboxStateOptions,
  ) {
    for (const k of seed.apiKeys) this.apiKeys.set(k.key, k);
    for (const o of seed.organizations) this.organizations.set(o.id, o);
    for (const u of seed.users) {
      const { teamName, ...rest } = u;
      this.users.push({ ...rest, ...(teamName ? { teamName } : {}), fields: {} });
    }
    this.simulations = seed.simulations;
    this.attempts = seed.attempts;
    for (const a of seed.assignments) this.assignments.add(key(a.organizationId, a.userId, a.simulationId));
  }

  private now(): number {
    return this.options.now();
  }

  // ---- persistence (--sandbox keeps its state between runs) ----

  snapshot(): SandboxSnapshot {
    return {
      version: 1,
      tokenSecret: this.options.tokenSecret.toString("hex"),
      users: this.users,
      attempts: this.attempts,
      assignments: [...this.assignments].map((k) => k.split("\u0000")),
      tasks: this.tasks,
      userCounter: this.userCounter,
      executionCounter: this.executionCounter,
      firstPolls: [...this.firstPolls],
    };
  }

  /** Replaces everything a command can change with a saved snapshot (from the same seed). */
  restore(snapshot: SandboxSnapshot): void {
    this.users = snapshot.users;
    this.attempts = snapshot.attempts;
    this.assignments.clear();
    for (const parts of snapshot.assignments) this.assignments.add(key(...parts));
    this.tasks = snapshot.tasks;
    this.userCounter = snapshot.userCounter;
    this.executionCounter = snapshot.executionCounter;
    this.firstPolls.clear();
    for (const [k, at] of snapshot.firstPolls) this.firstPolls.set(k, at);
  }

  // ---- organizations, users, simulations ----

  hasOrganization(org: string): boolean {
    return this.organizations.has(org);
  }

  listOrganizations(): { id: string; name: string }[] {
    return [...this.organizations.values()];
  }

  /** A user of `org` by userId or by email (case-insensitive). */
  getUser(org: string, userIdOrEmail: string): SandboxUser | undefined {
    this.settleTasks();
    const email = userIdOrEmail.toLowerCase();
    return this.users.find((u) => u.organizationId === org && (u.userId === userIdOrEmail || u.email.toLowerCase() === email));
  }

  listUsers(org: string): SandboxUser[] {
    this.settleTasks();
    return this.users.filter((u) => u.organizationId === org);
  }

  getSimulation(org: string, simulationId: string): SeedSimulation | undefined {
    return this.simulations.find((s) => s.organizationId === org && s.id === simulationId);
  }

  listSimulations(org: string): SeedSimulation[] {
    return this.simulations.filter((s) => s.organizationId === org).sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * Creates a trainee, or returns the existing user with that email unchanged (docs/service-spec.md §4.7:
   * "retrieves the user's data if the user already exists").
   */
  createUser(
    org: string,
    input: {
      email: string;
      firstName?: string;
      lastName?: string;
      teamName?: string;
      status?: "ACTIVE" | "INACTIVE";
      fields?: Record<string, unknown>;
    },
  ): { user: SandboxUser; created: boolean } {
    this.requireOrg(org);
    const existing = this.getUser(org, input.email);
    if (existing) return { user: existing, created: false };
    const user: SandboxUser = {
      userId: `user-${++this.userCounter}`,
      organizationId: org,
      email: input.email,
      username: input.email,
      firstName: input.firstName ?? "",
      lastName: input.lastName ?? "",
      role: "trainee",
      status: input.status ?? "ACTIVE",
      ...(input.teamName ? { teamName: input.teamName } : {}),
      createdAt: new Date(this.now()).toISOString(),
      fields: input.fields ?? {},
    };
    this.users.push(user);
    return { user, created: true };
  }

  // ---- attempts ----

  /** Every visible attempt of a user on a simulation, in the order they were recorded. */
  listAttempts(org: string, userId: string, simulationId: string): Attempt[] {
    const now = this.now();
    if (this.options.attemptCompletesAfterMs !== undefined) this.progressAttempts(org, userId, simulationId, now);
    const step = this.options.scriptedAttemptStepMs;
    if (step !== undefined && !this.attempts.some((a) => a.organizationId === org && a.userId === userId)) {
      const k = key("scripted", org, userId, simulationId);
      const first = this.firstPolls.get(k) ?? now;
      this.firstPolls.set(k, first);
      return scriptedAttempts({ organizationId: org, userId, simulationId }, first, now, step);
    }
    return this.attempts.filter(
      (a) =>
        a.organizationId === org &&
        a.userId === userId &&
        a.simulationId === simulationId &&
        (a.availableAt === undefined || now >= a.availableAt),
    );
  }

  /**
   * A trainee who started a simulation finishes it a while after someone first looks: the
   * first STARTED attempt becomes COMPLETED once attemptCompletesAfterMs has passed since
   * the first completion-data request for it, unless a completed attempt exists already.
   */
  private progressAttempts(org: string, userId: string, simulationId: string, now: number): void {
    const mine = this.attempts.filter((a) => a.organizationId === org && a.userId === userId && a.simulationId === simulationId);
    const started = mine.find((a) => a.status === "STARTED");
    if (!started || mine.some((a) => a.status === "COMPLETED")) return;
    const k = key(org, userId, simulationId);
    const first = this.firstPolls.get(k);
    if (first === undefined) {
      this.firstPolls.set(k, now);
      return;
    }
    if (now - first < (this.options.attemptCompletesAfterMs ?? 0)) return;
    const completionTime = 600;
    Object.assign(started, {
      status: "COMPLETED",
      startedAt: new Date(now - completionTime * 1000).toISOString(),
      completedAt: new Date(now).toISOString(),
      completionTime,
      score: 84,
      symScore: 86,
      accuracyScore: 81.5,
      keywordScore: 78,
      sentimentScores: { positive: 0.62, neutral: 0.3, negative: 0.08 },
    });
    this.firstPolls.delete(k);
  }

  /**
   * Records an attempt (e.g. one that completes while a client waits). A COMPLETED attempt
   * gets plausible defaults for whatever it leaves out; other states get nulls.
   */
  addAttempt(org: string, userId: string, simulationId: string, attempt: AttemptInput): Attempt {
    this.requireOrg(org);
    const user = this.getUser(org, userId);
    if (!user) throw new Error(`sandbox: no user ${userId} in ${org}`);
    if (!this.getSimulation(org, simulationId)) throw new Error(`sandbox: no simulation ${simulationId} in ${org}`);
    const completed = attempt.status === "COMPLETED";
    const at = this.now();
    const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
    const stored: Attempt = {
      executionId: attempt.executionId ?? `exec-${++this.executionCounter}`,
      organizationId: org,
      userId: user.userId,
      simulationId,
      status: attempt.status,
      startedAt: pick(attempt.startedAt, new Date(at - 600_000).toISOString()),
      completedAt: pick(attempt.completedAt, completed ? new Date(at).toISOString() : null),
      completionTime: pick(attempt.completionTime, completed ? 600 : null),
      score: pick(attempt.score, completed ? 80 : null),
      symScore: pick(attempt.symScore, completed ? 82 : null),
      accuracyScore: pick(attempt.accuracyScore, completed ? 79.5 : null),
      keywordScore: pick(attempt.keywordScore, completed ? 75 : null),
      clickScore: pick(attempt.clickScore, null),
      sentimentScores: pick(attempt.sentimentScores, completed ? { positive: 0.6, neutral: 0.3, negative: 0.1 } : null),
    };
    if (attempt.availableAt !== undefined) stored.availableAt = attempt.availableAt;
    this.attempts.push(stored);
    return stored;
  }

  // ---- assignments and links ----

  isAssigned(org: string, userId: string, simulationId: string): boolean {
    return this.assignments.has(key(org, userId, simulationId));
  }

  setAssigned(org: string, userId: string, simulationId: string, assigned: boolean): void {
    if (assigned) this.assignments.add(key(org, userId, simulationId));
    else this.assignments.delete(key(org, userId, simulationId));
  }

  /** `{app_url}/<organization_id>/simulation/<simulation_id>` (docs/service-spec.md §2), plus the optional test query. */
  deepLink(org: string, simulationId: string): string {
    const base = `${this.options.appUrl.replace(/\/+$/, "")}/${encodeURIComponent(org)}/simulation/${encodeURIComponent(simulationId)}`;
    return this.options.deepLinkQuery ? `${base}?${this.options.deepLinkQuery.replace(/^\?/, "")}` : base;
  }

  // ---- user tokens ----

  issueUserToken(org: string, userId: string): { token: string; expiresIn: number } {
    const issuedAt = this.now();
    const token = signUserToken(this.options.tokenSecret, {
      organizationId: org,
      userId,
      issuedAt,
      expiresAt: issuedAt + USER_TOKEN_TTL_SECONDS * 1000,
    });
    return { token, expiresIn: USER_TOKEN_TTL_SECONDS };
  }

  /** What the web application would decide when a user opens `<deepLink>?token=<token>`. */
  verifyUserToken(token: string): TokenCheck {
    return verifyUserToken(this.options.tokenSecret, token, this.now());
  }

  // ---- bulk import tasks ----

  createImportTask(org: string, fileName: string | undefined, rows: ImportRow[]): TaskSummary {
    this.requireOrg(org);
    const task: ImportTask = {
      taskId: `task-${randomUUID().slice(0, 13)}`,
      organizationId: org,
      fileName,
      createdAtMs: this.now(),
      rows,
    };
    this.tasks.push(task);
    return this.summarize(task);
  }

  getTask(org: string, taskId: string): TaskSummary | undefined {
    this.settleTasks();
    const task = this.tasks.find((t) => t.organizationId === org && t.taskId === taskId);
    return task ? this.summarize(task) : undefined;
  }

  listTasks(org: string): TaskSummary[] {
    this.settleTasks();
    return this.tasks.filter((t) => t.organizationId === org).map((t) => this.summarize(t));
  }

  private statusOf(task: ImportTask): TaskStatus {
    if (task.final) return task.final;
    const elapsed = this.now() - task.createdAtMs;
    if (elapsed < this.options.importStepMs) return "SCHEDULED";
    return "STARTED";
  }

  private summarize(task: ImportTask): TaskSummary {
    return {
      taskId: task.taskId,
      organizationId: task.organizationId,
      status: this.statusOf(task),
      fileName: task.fileName,
      createdAt: new Date(task.createdAtMs).toISOString(),
      rowsUploaded: task.rows.length,
      rows: task.rows,
    };
  }

  /**
   * Finishes, in creation order, every task that has spent two steps (SCHEDULED, STARTED)
   * and applies its rows. Called before every read so that a finished import is visible
   * to the very next request.
   */
  private settleTasks(): void {
    const now = this.now();
    for (const task of this.tasks) {
      if (task.final || now - task.createdAtMs < 2 * this.options.importStepMs) continue;
      const fails = task.rows.some((r) => r.email.toLowerCase().endsWith(`@${FAILING_EMAIL_DOMAIN}`));
      task.final = fails ? "FAILED" : "COMPLETED";
      if (!fails) this.applyRows(task);
    }
  }

  private applyRows(task: ImportTask): void {
    for (const row of task.rows) {
      const email = row.email.toLowerCase();
      const existing = this.users.find((u) => u.organizationId === task.organizationId && u.email.toLowerCase() === email);
      if (existing) {
        // Add of a user created meanwhile (e.g. by user/create) behaves like Update.
        existing.firstName = row.firstName;
        existing.lastName = row.lastName;
        existing.status = row.status;
        if (row.teamName) existing.teamName = row.teamName;
        continue;
      }
      if (row.action === "Update") continue; // the user vanished meanwhile; nothing to update
      this.users.push({
        userId: `user-${++this.userCounter}`,
        organizationId: task.organizationId,
        email: row.email,
        username: row.username,
        firstName: row.firstName,
        lastName: row.lastName,
        role: "trainee",
        status: row.status,
        ...(row.teamName ? { teamName: row.teamName } : {}),
        createdAt: new Date(task.createdAtMs + 2 * this.options.importStepMs).toISOString(),
        fields: {},
      });
    }
  }

  private requireOrg(org: string): void {
    if (!this.organizations.has(org)) throw new Error(`sandbox: no organization ${org}`);
  }
}

/** A user as user/create answers it: the stored fields, then the extra ones. */
export function publicUser(user: SandboxUser): Record<string, unknown> {
  const { fields, teamName, ...rest } = user;
  return { ...fields, ...rest, ...(teamName !== undefined ? { teamName } : {}) };
}
