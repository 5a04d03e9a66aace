import { describe, expect, it } from "vitest";
import type { JsonRecord } from "../../src/domain/records.js";
import { writeSections, type OutputSink, type SectionsSource, type SectionsTarget } from "../../src/output/sections.js";

// output/sections.ts: the output engine's writer of results in named sections, on its own (the
// reports command's use of it is tested through the command, test/cli/reports*.test.ts).

function memory(): { sink: OutputSink; text: () => string; committed: () => boolean } {
  let text = "";
  let committed = false;
  return {
    sink: {
      toTerminal: false,
      write: async (chunk) => void (text += String(chunk)),
      commit: async () => void (committed = true),
      abort: async () => {},
    },
    text: () => text,
    committed: () => committed,
  };
}

function source(sections: Record<string, JsonRecord[] | Error>, together: boolean, notes: string[]): SectionsSource {
  return {
    names: Object.keys(sections),
    together,
    raw: false,
    spoolDir: undefined,
    signal: new AbortController().signal,
    async *batches(name) {
      const section = sections[name];
      if (section instanceof Error) throw section;
      yield section ?? [];
    },
    failed: (name, error) => (error instanceof Error && error.message === "skip me" ? "skip" : undefined),
    title: (name) => `== ${name}`,
    fileName: (name) => `${name}.json`,
    emptyNote: (name) => `no records in ${name}`,
    beforeNote: () => notes.push("(pause)"),
  };
}

function target(format: SectionsTarget["format"], out: ReturnType<typeof memory>, notes: string[]): SectionsTarget {
  return {
    format,
    fields: undefined,
    query: undefined,
    out: undefined,
    outDir: undefined,
    options: { format: format === "text" ? "json" : format },
    openOutput: async () => out.sink,
    note: (text) => notes.push(text),
    showPath: (path) => path,
  };
}

describe("writeSections", () => {
  it("sections together as json: one object keyed by name; a section the source lets fail is left out, the document stays valid", async () => {
    const out = memory();
    const notes: string[] = [];
    const left = await writeSections(
      target("json", out, notes),
      source({ a: [{ n: 1 }], b: new Error("skip me"), c: [{ n: 3 }] }, true, notes),
    );
    expect(left).toEqual([]);
    expect(JSON.parse(out.text())).toEqual({ a: [{ n: 1 }], c: [{ n: 3 }] });
    expect(out.committed()).toBe(true);
  });

  it("a failure the source does not allow fails the whole result", async () => {
    const out = memory();
    await expect(
      writeSections(target("json", out, []), source({ a: [{ n: 1 }], b: new Error("bug") }, true, [])),
    ).rejects.toThrow("bug");
    expect(out.committed()).toBe(false);
  });

  it("one section is the output itself, and an empty one is said on stderr (with the CSV's remark)", async () => {
    const out = memory();
    const notes: string[] = [];
    await writeSections(target("csv", out, notes), source({ a: [] }, false, notes));
    expect(out.text()).toBe("");
    expect(notes).toEqual(["(pause)", "no records in a; the CSV is empty (--fields <columns> gives it a header)"]);
  });

  it("tables together: a titled table per section", async () => {
    const out = memory();
    await writeSections(target("table", out, []), source({ a: [{ n: 1 }], b: [{ n: 2 }] }, true, []));
    expect(out.text()).toMatch(/^== a\n[\s\S]*│ 1 │[\s\S]*\n== b\n[\s\S]*│ 2 │/);
  });
});
