// Reads a DuckDB file the way a user's SQL would, for tests of `reports sync`.
export async function queryDuckDb(path: string, sql: string): Promise<Record<string, unknown>[]> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
