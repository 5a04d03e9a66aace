// @ts-nocheck
import { describe, expect, it } from "vitest";
import { LocalFileError } from "../../src/errors.js";

describe("LocalFileError", () => {
  it("is exit 11 and names the path and the cause of a system error", () => {
    const system = Object.assign(new Error("EACCES: permission denied, open '/ro/t.json'"), { code: "EACCES" });
    const error = LocalFileError.fromSystem(system, "/ro/t.json", "write");
    expect(error.exitCode).toBe(11);
    expect(error.message).toBe("cannot write /ro/t.json: permission denied (EACCES)");
    expect(error.path).toBe("/ro/t.json");
    expect(error.code).toBe("EACCES");
  });

  it("keeps an unknown errno code visible", () => {
    const system = Object.assign(new Error("boom"), { code: "EWEIRD" });
    expect(LocalFileError.fromSystem(system, "f", "read").message).toBe("cannot read f: failed (EWEIRD)");
  });
});
