import { randomUUID } from "node:crypto";
import { attemptToStore, completeAfterFirstLook, type Attempt, type AttemptInput } from "./attempts.js";
import { settleTasks, summarizeTask, type ImportTask, type TaskSummary } from "./import-tasks.js";
import type { Seed, SeedApiKey, SeedSimulation } from "./seed.js";
import { USER_TOKEN_TTL_SECONDS, signUserToken, verifyUserToken, type TokenCheck } from "./tokens.js";
import { applyImportRows, newTrainee, type NewUserInput, type SandboxUser } from "./users.js";
import type { ImportRow } from "./users-csv.js";
import { scriptedAttempts } from "./progress-script.js";

// Everything the sandbox knows, in memory only. Time comes from the injected clock, and
// bulk-import tasks advance by reading it (no timers), so tests move time instead of
// sleeping. The rules live beside it: attempts.ts, import-tasks.ts, users.ts.

export interface SandboxStateOptions {
  now: () => number;
  appUrl: string;
  deepLinkQuery?: string;
  importStepMs: number;
  tokenSecret: Buffer;
  /**
   * When set, an unfinished (STARTED) attempt completes this long after completion-data was
   * first asked for it, so that `completion --wait` has something to wait for. Off by default: tests that do not ask for it see the seed unchanged.
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
  createUser(org: string, input: NewUserInput): { user: SandboxUser; created: boolean } {
    this.requireOrg(org);
    const existing = this.getUser(org, input.email);
    if (existing) return { user: existing, created: false };
    const user = newTrainee({
      userId: this.newUserId(),
      organizationId: org,
      email: input.email,
      username: input.email,
      firstName: input.firstName ?? "",
      lastName: input.lastName ?? "",
      status: input.status ?? "ACTIVE",
      teamName: input.teamName,
      createdAt: new Date(this.now()).toISOString(),
      fields: input.fields ?? {},
    });
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

  /** See attemptCompletesAfterMs (attempts.ts). */
  private progressAttempts(org: string, userId: string, simulationId: string, now: number): void {
    const mine = this.attempts.filter((a) => a.organizationId === org && a.userId === userId && a.simulationId === simulationId);
    completeAfterFirstLook(mine, this.firstPolls, key(org, userId, simulationId), now, this.options.attemptCompletesAfterMs ?? 0);
  }

  /** Records an attempt (e.g. one that completes while a client waits), with attemptToStore's defaults. */
  addAttempt(org: string, userId: string, simulationId: string, attempt: AttemptInput): Attempt {
    this.requireOrg(org);
    const user = this.getUser(org, userId);
    if (!user) throw new Error(`sandbox: no user ${userId} in ${org}`);
    if (!this.getSimulation(org, simulationId)) throw new Error(`sandbox: no simulation ${simulationId} in ${org}`);
    const stored = attemptToStore(
      { organizationId: org, userId: user.userId, simulationId },
      attempt,
      this.now(),
      () => `exec-${++this.executionCounter}`,
    );
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
    return this.summary(task);
  }

  getTask(org: string, taskId: string): TaskSummary | undefined {
    this.settleTasks();
    const task = this.tasks.find((t) => t.organizationId === org && t.taskId === taskId);
    return task ? this.summary(task) : undefined;
  }

  listTasks(org: string): TaskSummary[] {
    this.settleTasks();
    return this.tasks.filter((t) => t.organizationId === org).map((t) => this.summary(t));
  }

  private summary(task: ImportTask): TaskSummary {
    return summarizeTask(task, this.now(), this.options.importStepMs);
  }

  /**
   * Finishes every task that has run its two steps and applies the rows of those that
   * completed. Called before every read so that a finished import is visible to the very
   * next request.
   */
  private settleTasks(): void {
    const stepMs = this.options.importStepMs;
    for (const task of settleTasks(this.tasks, this.now(), stepMs)) {
      const createdAt = new Date(task.createdAtMs + 2 * stepMs).toISOString();
      applyImportRows(this.users, task, createdAt, () => this.newUserId());
    }
  }

  private newUserId(): string {
    return `user-${++this.userCounter}`;
  }

  private requireOrg(org: string): void {
    if (!this.organizations.has(org)) throw new Error(`sandbox: no organization ${org}`);
  }
}
