// @ts-nocheck
import { describe, expect, it } from "vitest";
import { deepLinkIn, listInAnswer } from "../../src/domain/answer-shapes.js";

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

  it.each([
    ["two filled lists and neither named", { one: [a], two: [b] }],
    ["no list at all", { ok: true }],
    ["a string", "hello"],
    ["null", null],
  ])("refuses %s", (_name, body) => {
    expect(listInAnswer(body, "simulations")).toHaveProperty("problem");
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
