// Dialects: the choices the spec leaves open ("not shown"), made differently.
//
// docs/service-spec.md fixes the paths, the requests and a few answer fields; everything
// else — report fields and envelopes, the deep-link field, library envelopes and page
// metadata, the token's expiresIn, where the completion attempts sit, the import-status
// field, the bulk-import answer, error bodies — is the service's own choice. A real service
// written from the same spec will choose differently from this sandbox, so the sandbox can
// answer in several dialects and the tests run the commands against more than one: a client
// that reads by shape passes them all; one that froze the default dialect's names does not.
//
// `default` is the sandbox as it always was. `public` follows the public documentation
// (docs/service-notes.md). `terse` makes yet other allowed choices. A number (or "seed:<n>")
// picks each topic's variant with a PRNG, for wider sweeps.

import { UsageError } from "../errors.js";

export type ReportFieldStyle = "default" | "public" | "terse";
export type ReportEnvelope = "default" | "bare" | "records" | "data" | "rows";
export type DeepLinkStyle = "default" | "list" | "link";
export type LibraryEnvelope = "simulations" | "results" | "data" | "bare";
export type LibraryMeta = "none" | "top" | "nested";
export type CompletionStyle = "completionData" | "bare" | "attempts";
export type BulkImportStyle = "public" | "brief";
export type ErrorStyle = "nested" | "flat" | "message" | "empty" | "html";

export interface Dialect {
  /** "default", "public", "terse", or "seed:<n>". */
  name: string;
  reports: {
    fields: ReportFieldStyle;
    /** One envelope per report kind, in REPORT_KINDS order, repeated when shorter. */
    envelopes: readonly ReportEnvelope[];
  };
  deepLink: DeepLinkStyle;
  /** The name of the bulk-import/status answer's state field. */
  importStatusField: string;
  library: {
    envelope: LibraryEnvelope;
    meta: LibraryMeta;
    /** The service returns at most this many items a page, whatever pageSize asks. */
    maxPageSize: number;
    /** A broken service: every page is page 1 (tests of "completeness cannot be known"). */
    ignoresPage: boolean;
  };
  tokenExpiresIn: boolean;
  completion: CompletionStyle;
  bulkImport: BulkImportStyle;
  errors: ErrorStyle;
}

export const DEFAULT_DIALECT: Dialect = {
  name: "default",
  reports: { fields: "default", envelopes: ["default"] },
  deepLink: "default",
  importStatusField: "status",
  library: { envelope: "simulations", meta: "none", maxPageSize: 100, ignoresPage: false },
  tokenExpiresIn: true,
  completion: "completionData",
  bulkImport: "public",
  errors: "nested",
};

/** The shapes of docs/service-notes.md: list deep-links, `{results}` pages capped at 10 without metadata, flat errors. */
const PUBLIC_DIALECT: Dialect = {
  name: "public",
  reports: { fields: "public", envelopes: ["bare", "records"] },
  deepLink: "list",
  importStatusField: "status",
  library: { envelope: "results", meta: "none", maxPageSize: 10, ignoresPage: false },
  tokenExpiresIn: true,
  completion: "completionData",
  bulkImport: "public",
  errors: "flat",
};

/** Other allowed choices: snake_case reports under `{rows}`/`{data}`, `{link}`, `{data, meta}` pages capped at 7, no expiresIn, bare attempts, `state`, brief uploads, `{message}` errors. */
const TERSE_DIALECT: Dialect = {
  name: "terse",
  reports: { fields: "terse", envelopes: ["rows", "data", "bare"] },
  deepLink: "link",
  importStatusField: "state",
  library: { envelope: "data", meta: "nested", maxPageSize: 7, ignoresPage: false },
  tokenExpiresIn: false,
  completion: "bare",
  bulkImport: "brief",
  errors: "message",
};

export const NAMED_DIALECTS: Readonly<Record<string, Dialect>> = {
  default: DEFAULT_DIALECT,
  public: PUBLIC_DIALECT,
  terse: TERSE_DIALECT,
};

/** The dialects the command tests run against (test matrix). */
export const MATRIX_DIALECTS = ["default", "public", "terse"] as const;

/** Field-by-field overrides on top of a named dialect (tests of one variant). */
export type DialectOverrides = Partial<Omit<Dialect, "name" | "library" | "reports">> & {
  base?: string;
  library?: Partial<Dialect["library"]>;
  reports?: Partial<Dialect["reports"]>;
};

export type DialectChoice = string | number | DialectOverrides;

/** mulberry32: small and deterministic. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each topic's variant drawn from a seed; the same seed is the same dialect. */
export function dialectFromSeed(seed: number): Dialect {
  const next = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const envelopes: ReportEnvelope[] = Array.from({ length: 7 }, () =>
    pick(["default", "bare", "records", "data", "rows"] as const),
  );
  return {
    name: `seed:${seed}`,
    reports: { fields: pick(["default", "public", "terse"] as const), envelopes },
    deepLink: pick(["default", "list", "link"] as const),
    importStatusField: pick(["status", "state", "taskStatus"]),
    library: {
      envelope: pick(["simulations", "results", "data", "bare"] as const),
      meta: pick(["none", "top", "nested"] as const),
      maxPageSize: pick([5, 10, 25, 100]),
      ignoresPage: false,
    },
    tokenExpiresIn: next() < 0.5,
    completion: pick(["completionData", "bare", "attempts"] as const),
    bulkImport: pick(["public", "brief"] as const),
    errors: pick(["nested", "flat", "message", "empty", "html"] as const),
  };
}

/**
 * A dialect from SandboxOptions.dialect or SIMADMIN_SANDBOX_DIALECT: a name, a seed
 * (`1234` or `seed:1234`), or overrides of a named one. RangeError for anything else.
 */
export function resolveDialect(choice: DialectChoice | undefined): Dialect {
  if (choice === undefined) return DEFAULT_DIALECT;
  if (typeof choice === "number") {
    if (!Number.isInteger(choice) || choice < 0)
      throw new RangeError(`a dialect seed must be a whole number >= 0, got ${choice}`);
    return dialectFromSeed(choice);
  }
  if (typeof choice === "string") {
    const text = choice.trim().toLowerCase();
    if (text === "") return DEFAULT_DIALECT;
    const named = NAMED_DIALECTS[text];
    if (named) return named;
    const seed = /^(?:seed:)?(\d{1,9})$/.exec(text);
    if (seed?.[1]) return dialectFromSeed(Number(seed[1]));
    throw new RangeError(
      `unknown sandbox dialect ${JSON.stringify(choice)}: use ${Object.keys(NAMED_DIALECTS).join(", ")} or a seed (a whole number)`,
    );
  }
  const { base, library, reports, ...rest } = choice;
  const from = resolveDialect(base);
  return {
    ...from,
    ...rest,
    name: `${from.name}+overrides`,
    library: { ...from.library, ...library },
    reports: { ...from.reports, ...reports },
  };
}

/** SIMADMIN_SANDBOX_DIALECT, read where `simadmin sandbox` and `--sandbox` start one; a bad value is exit 2. */
export function dialectFromEnv(env: Readonly<Record<string, string | undefined>>): Dialect {
  try {
    return resolveDialect(env.SIMADMIN_SANDBOX_DIALECT);
  } catch (error) {
    throw new UsageError(`SIMADMIN_SANDBOX_DIALECT: ${(error as Error).message}`, {
      hint: "unset it for the default dialect (docs/sandbox-dialects.md)",
    });
  }
}
