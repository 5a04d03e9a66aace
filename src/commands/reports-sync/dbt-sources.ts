import { LocalFileError } from "../../errors.js";
import { writeFileAtomic } from "../../output/atomic-file.js";
import { META_TABLE, type SyncStore } from "./store.js";

// `--dbt-sources <file>` (docs/cli-contract.md, Warehouse rules): a dbt `sources.yml` naming
// the tables this run keeps, their columns, and freshness on `fetched_at` — a nightly sync
// that stopped shows up in `dbt source freshness`. Windows are re-fetched until two days
// after their end, so a day without a run warns and three days are an error.

function yamlText(text: string): string {
  return JSON.stringify(text);
}

export async function writeDbtSources(path: string, store: SyncStore, tables: string[]): Promise<void> {
  // Both databases answer with the schema the tables were made in (`main`, `public`, or the search path's first).
  const [schemaRow] = await store.db.all("SELECT current_schema() AS s");
  const schema = String(schemaRow!.s);
  const lines = [
    "# Written by `simadmin reports sync --dbt-sources`; written anew by every run.",
    "version: 2",
    "",
    "sources:",
    "  - name: simadmin_reports",
    `    schema: ${yamlText(schema)}`,
    "    description: Reports of the Simulation Access and Reporting Service, kept by simadmin reports sync.",
    "    loaded_at_field: fetched_at",
    "    freshness:",
    "      warn_after: { count: 36, period: hour }",
    "      error_after: { count: 72, period: hour }",
    "    tables:",
  ];
  // Every table is there: each kind synced has at least the window holding today, and a
  // window makes its table even with no records (a run that failed writes no file).
  for (const table of tables) {
    const columns = await store.db.all(
      "SELECT column_name AS n FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position",
      [table],
    );
    lines.push(`      - name: ${yamlText(table)}`, "        columns:");
    for (const { n } of columns) lines.push(`          - name: ${yamlText(String(n))}`);
  }
  lines.push(
    `      - name: ${META_TABLE}`,
    "        description: One row per table and window synced (kind is the table name).",
    "        freshness: null",
    "",
  );
  try {
    await writeFileAtomic(path, lines.join("\n"));
  } catch (error) {
    throw LocalFileError.fromSystem(error, path, "write");
  }
}
