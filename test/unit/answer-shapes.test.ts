import { describe, expect, it } from "vitest";
import { deepLinkIn, isHttpUrl, listInAnswer } from "../../src/domain/answer-shapes.js";

// Answers whose envelope the spec leaves open, read by shape (issue 21 item 3).

const a = { id: "a" };
const b = { id: "b" };

describe("listInAnswer", () => {
  it.each([
    ["the spec's name", { simulations: [a, b] }, [a, b]],
    ["a bare array", [a, b], [a, b]],
    ["{results} beside metadata", { results: [a], page: 1, total: 1 }, [a]],
    ["{data} with nested metadata", { data: [a, b], meta: { totalPages: 3 } }, [a, b]],
    ["one level down", { data: { items: [b] } }, [b]],
    ["an empty list", { results: [] }, []],
    ["the named list wins over another", { simulations: [a], related: [b] }, [a]],
  ])("finds the list in %s", (_name, body, list) => {
    expect(listInAnswer(body, "simulations")).toEqual({ list });
  });
});

describe("deepLinkIn", () => {
  const url = (sim: string) => `https://app.example/org/simulation/${sim}`;

  it("takes the asked simulation's entry of the documented list form, wherever it is", () => {
    const body = {
      simulations: [
        { simulationId: "s1", deepLink: url("s1") },
        { simulationId: "s2", deepLink: url("s2") },
      ],
    };
    expect(deepLinkIn(body, "s2")).toEqual({ url: url("s2") });
    expect(deepLinkIn(body, "s1")).toEqual({ url: url("s1") });
  });

  it("takes the one entry of a one-entry list even if it does not name the simulation", () => {
    expect(deepLinkIn([{ link: url("s1") }], "s1")).toEqual({ url: url("s1") });
  });

  it("refuses a list without the asked simulation", () => {
    const found = deepLinkIn(
      {
        simulations: [
          { simulationId: "s1", deepLink: url("s1") },
          { simulationId: "s3", deepLink: url("s3") },
        ],
      },
      "s2",
    );
    expect(found).toEqual({ problem: "a list of 2 simulations without s2" });
  });

  it("reads a single answer under any field name", () => {
    expect(deepLinkIn({ link: url("s1") }, "s1")).toEqual({ url: url("s1") });
    expect(deepLinkIn({ success: true, url: url("s1") }, "s1")).toEqual({ url: url("s1") });
  });
});

describe("listInAnswer: the exact problem, and the edges (issue 27 item 3)", () => {
  it.each([
    ["two filled lists and neither named", { one: [a], two: [b] }, "several lists (2)"],
    ["no list at all", { ok: true }, "no list of items"],
    ["a string", "hello", "not a list (string)"],
    ["null", null, "not a list (object)"],
    ["a number", 3, "not a list (number)"],
    ["a bare list of non-objects", [a, 1], "a list of non-objects"],
    ["a list one level down in two places", { x: { items: [a] }, y: { rows: [b] } }, "several lists"],
    ["two filled lists one level down", { data: { one: [a], two: [b] } }, "several lists (2)"],
  ])("refuses %s: %s", (_name, body, problem) => {
    expect(listInAnswer(body, "simulations")).toEqual({ problem });
  });

  it.each([
    ["the named field when it is not a list: the one list elsewhere", { simulations: "x", data: [a] }, [a]],
    ["the named list even empty, beside a filled one", { simulations: [], related: [b] }, []],
    ["two empty lists: nothing to show", { one: [], two: [] }, []],
    ["a filled list beside an empty one", { warnings: [], data: [b] }, [b]],
    ["an empty list one level down beside an object without lists", { data: { items: [] }, meta: { page: 1 } }, []],
    ["a list one level down, the top having an array of scalars", { tags: ["x"], data: { items: [a] } }, [a]],
    ["a bare empty array", [], []],
  ])("finds %s", (_name, body, list) => {
    expect(listInAnswer(body, "simulations")).toEqual({ list });
  });
});

describe("deepLinkIn: the other forms and the exact problems (issue 27 item 3)", () => {
  const url = (sim: string) => `https://app.example/org/simulation/${sim}`;

  it("takes a bare http(s) URL, and nothing else that is not an object", () => {
    expect(deepLinkIn(url("s1"), "s1")).toEqual({ url: url("s1") });
    expect(deepLinkIn("http://app.example/s1", "s1")).toEqual({ url: "http://app.example/s1" });
    for (const body of ["ftp://app.example/s1", "javascript:alert(1)", "not a url", 42, null]) {
      expect(deepLinkIn(body, "s1")).toEqual({ problem: "no deep-link URL in the answer" });
    }
  });

  it("reads one URL one level down, and refuses several or none", () => {
    expect(deepLinkIn({ data: { link: url("s1"), id: "s1" } }, "s1")).toEqual({ url: url("s1") });
    expect(deepLinkIn({ web: url("s1"), app: url("s2") }, "s1")).toEqual({
      problem: "2 URLs and no way to tell which is the deep link",
    });
    expect(deepLinkIn({ data: { web: url("s1"), app: url("s2") } }, "s1")).toEqual({
      problem: "2 URLs and no way to tell which is the deep link",
    });
    expect(deepLinkIn({ ok: true, link: "ftp://x" }, "s1")).toEqual({ problem: "no deep-link URL in the answer" });
  });

  it("a URL at the top wins over URLs one level down", () => {
    expect(deepLinkIn({ link: url("s1"), more: { help: "https://help.example" } }, "s1")).toEqual({ url: url("s1") });
  });

  it("skips an empty list and reads the object's own URL", () => {
    expect(deepLinkIn({ simulations: [], link: url("s1") }, "s1")).toEqual({ url: url("s1") });
  });

  it("finds the entry naming the simulation one level down, and its URL one level down", () => {
    const body = [
      { meta: { id: "s1" }, links: { web: url("s1") } },
      { meta: { id: "s2" }, links: { web: url("s2") } },
    ];
    expect(deepLinkIn(body, "s2")).toEqual({ url: url("s2") });
  });

  it("in an entry with several URLs, takes the one that names the simulation", () => {
    const entry = { simulationId: "s1", help: "https://help.example/", deepLink: url("s1") };
    expect(deepLinkIn([entry, { simulationId: "s2", deepLink: url("s2") }], "s1")).toEqual({ url: url("s1") });
    expect(deepLinkIn([{ simulationId: "s1", a: "https://a.example/", b: "https://b.example/" }], "s1")).toEqual({
      problem: "no single deep-link URL in the entry of s1",
    });
    expect(deepLinkIn([{ simulationId: "s1" }], "s1")).toEqual({ problem: "no single deep-link URL in the entry of s1" });
  });

  it("refuses two entries for the asked simulation", () => {
    expect(
      deepLinkIn(
        [
          { simulationId: "s1", deepLink: url("s1") },
          { simulationId: "s1", deepLink: url("s1") + "?again" },
        ],
        "s1",
      ),
    ).toEqual({ problem: "2 entries for s1" });
  });
});

describe("answer shapes: the last survivors (issue 27 item 3)", () => {
  it("looks one level down into objects only, not into lists of lists", () => {
    expect(listInAnswer({ pages: [[{ a: 1 }]] }, "items")).toEqual({ problem: "no list of items" });
  });

  it("a URL is a string: not a list holding one, not something that prints as one", () => {
    expect(isHttpUrl(["https://sim.example/a"])).toBe(false);
    expect(isHttpUrl({ toString: () => "https://sim.example/a" })).toBe(false);
    expect(isHttpUrl("not a url")).toBe(false);
    expect(isHttpUrl("ftp://sim.example/a")).toBe(false);
    expect(isHttpUrl("http://sim.example/a")).toBe(true);
    expect(deepLinkIn(["https://sim.example/a"], "s1")).toEqual({ problem: "no deep-link URL in the answer" });
  });

  it("does not take a URL from a list of strings inside the answer", () => {
    expect(deepLinkIn({ links: ["https://sim.example/a"] }, "s1")).toEqual({ problem: "no deep-link URL in the answer" });
  });

  it("finds the entry that names the simulation in a nested object", () => {
    const body = {
      simulations: [
        { simulation: { id: "s1", name: "A" }, link: "https://sim.example/launch/1" },
        { simulation: { id: "s2", name: "B" }, link: "https://sim.example/launch/2" },
      ],
    };
    expect(deepLinkIn(body, "s2")).toEqual({ url: "https://sim.example/launch/2" });
  });

  it("the one URL of the entry, even when it does not contain the simulation id", () => {
    const body = { simulations: [{ simulationId: "s1", deepLink: "https://sim.example/launch?t=abc" }, { simulationId: "s2" }] };
    expect(deepLinkIn(body, "s1")).toEqual({ url: "https://sim.example/launch?t=abc" });
  });
});
