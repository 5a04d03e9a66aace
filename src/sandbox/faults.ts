// Fault injection for tests, reachable only through this programmatic API (no HTTP route
// exposes it). Each rule fires for the next `count` requests whose path matches.

export interface FaultInjector {
  /** `path` is matched exactly against the request path, or as a prefix when it ends with "*". */
  failNext(path: string, count: number, status: number, options?: { retryAfterSeconds?: number; body?: unknown }): void;
  respondNext(path: string, count: number, response: { status: number; body: unknown; headers?: Record<string, string> }): void;
  delayNext(path: string, count: number, ms: number): void;
  dropNext(path: string, count: number): void;
  dropAfterAccept(path: string, count: number): void;
  /**
   * The next accepted uploads are performed, but their answer counts more invalid users than
   * its errors name (a service whose counts and row errors disagree): the client cannot tell
   * which rows were imported.
   */
  miscountNext(path: string, count: number): void;
  clear(): void;
}

/** Answers given instead of handling the request; they have no side effects and do not count against rate limits. */
export type ImmediateFault =
  | { kind: "fail"; status: number; retryAfterSeconds?: number; body?: unknown }
  | { kind: "respond"; status: number; body: unknown; headers: Record<string, string> }
  | { kind: "drop" };

interface Rule<T> {
  pattern: string;
  remaining: number;
  value: T;
}

function matches(pattern: string, path: string): boolean {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

function take<T>(rules: Rule<T>[], path: string): T | undefined {
  const index = rules.findIndex((r) => r.remaining > 0 && matches(r.pattern, path));
  if (index < 0) return undefined;
  const rule = rules[index];
  if (!rule) return undefined;
  rule.remaining -= 1;
  if (rule.remaining <= 0) rules.splice(index, 1);
  return rule.value;
}

function checkCount(count: number): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError("fault count must be an integer ≥ 1");
}

export class FaultController implements FaultInjector {
  // fail, respond and drop share one list so that rules of different kinds for the same
  // path fire in the order the test registered them.
  private readonly immediate: Rule<ImmediateFault>[] = [];
  private readonly delays: Rule<number>[] = [];
  private readonly afterAccept: Rule<true>[] = [];
  private readonly miscounts: Rule<true>[] = [];

  failNext(path: string, count: number, status: number, options: { retryAfterSeconds?: number; body?: unknown } = {}): void {
    checkCount(count);
    if (!Number.isInteger(status) || status < 100 || status > 599) throw new RangeError("fault status must be an HTTP status");
    const value: ImmediateFault = { kind: "fail", status };
    if (options.retryAfterSeconds !== undefined) value.retryAfterSeconds = options.retryAfterSeconds;
    if (options.body !== undefined) value.body = options.body;
    this.immediate.push({ pattern: path, remaining: count, value });
  }

  respondNext(path: string, count: number, response: { status: number; body: unknown; headers?: Record<string, string> }): void {
    checkCount(count);
    this.immediate.push({
      pattern: path,
      remaining: count,
      value: { kind: "respond", status: response.status, body: response.body, headers: response.headers ?? {} },
    });
  }

  delayNext(path: string, count: number, ms: number): void {
    checkCount(count);
    if (!(ms >= 0)) throw new RangeError("delay must be ≥ 0 ms");
    this.delays.push({ pattern: path, remaining: count, value: ms });
  }

  dropNext(path: string, count: number): void {
    checkCount(count);
    this.immediate.push({ pattern: path, remaining: count, value: { kind: "drop" } });
  }

  dropAfterAccept(path: string, count: number): void {
    checkCount(count);
    this.afterAccept.push({ pattern: path, remaining: count, value: true });
  }

  miscountNext(path: string, count: number): void {
    checkCount(count);
    this.miscounts.push({ pattern: path, remaining: count, value: true });
  }

  clear(): void {
    this.immediate.length = 0;
    this.delays.length = 0;
    this.afterAccept.length = 0;
    this.miscounts.length = 0;
  }

  /** Consumes the delay rule for this request, if any (0 when none). */
  takeDelay(path: string): number {
    return take(this.delays, path) ?? 0;
  }

  takeImmediate(path: string): ImmediateFault | undefined {
    return take(this.immediate, path);
  }

  /** Consumed only when the request is actually performed. */
  takeDropAfterAccept(path: string): boolean {
    return take(this.afterAccept, path) ?? false;
  }

  /** Consumed only by an answer that carries counts (a performed upload). */
  takeMiscount(path: string, body: unknown): unknown {
    if (typeof body !== "object" || body === null || !("invalidUsersCount" in body)) return body;
    if (!take(this.miscounts, path)) return body;
    const counted = body as { invalidUsersCount: number; validUsersCount?: number };
    return { ...counted, invalidUsersCount: counted.invalidUsersCount + 2 };
  }
}
