// /metrics in the Prometheus text format (version 0.0.4), written by hand: a few counters
// are all `links serve` exports, and prom-client would add a dependency's load time and
// its default process metrics for nothing (docs/links.md "Monitoring").

export type Counter =
  | "clicks" // POSTs (and resumed clicks) of a valid link
  | "tokens_minted" // user/token requests that returned a token
  | "token_cache_hits" // clicks served with a kept token
  | "budget_waits" // clicks answered 503 because the access budget was full
  | "service_failures"; // clicks the service failed

const HELP: Record<Counter, string> = {
  clicks: "Start clicks on valid durable links",
  tokens_minted: "User tokens minted from the service",
  token_cache_hits: "Clicks served with a user token kept in memory",
  budget_waits: "Clicks answered 503 because the access rate budget had no room",
  service_failures: "Clicks that failed because the service failed or refused",
};

export class Metrics {
  readonly #counters = new Map<Counter, number>();
  readonly #responses = new Map<string, number>();

  count(counter: Counter, by = 1): void {
    this.#counters.set(counter, (this.#counters.get(counter) ?? 0) + by);
  }

  get(counter: Counter): number {
    return this.#counters.get(counter) ?? 0;
  }

  response(method: string, status: number): void {
    const key = `${method} ${status}`;
    this.#responses.set(key, (this.#responses.get(key) ?? 0) + 1);
  }

  text(): string {
    const lines: string[] = [];
    for (const counter of Object.keys(HELP) as Counter[]) {
      const name = `simadmin_links_${counter}_total`;
      lines.push(`# HELP ${name} ${HELP[counter]}`, `# TYPE ${name} counter`, `${name} ${this.get(counter)}`);
    }
    const name = "simadmin_links_responses_total";
    lines.push(`# HELP ${name} HTTP answers by method and status`, `# TYPE ${name} counter`);
    for (const [key, value] of [...this.#responses].sort()) {
      const [method, status] = key.split(" ");
      lines.push(`${name}{method="${method}",status="${status}"} ${value}`);
    }
    return `${lines.join("\n")}\n`;
  }
}
