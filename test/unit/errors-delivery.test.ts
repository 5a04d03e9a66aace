import { describe, expect, it } from "vitest";
import {
  AuthError,
  ImportFailedError,
  InterruptedError,
  InvalidDataError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceError,
  UnexpectedResponseError,
  UsageError,
  WaitTimeoutError,
} from "../../src/errors.js";

// Whether an upload that failed may be sent again is a property of the error (errors.ts
// `delivery`), not a list of classes in the upload code.

describe("error delivery", () => {
  it.each([
    ["UsageError (nothing sent)", new UsageError("x"), "not-sent"],
    ["AuthError (401)", new AuthError("x"), "not-sent"],
    ["PermissionError (403)", new PermissionError("x"), "not-sent"],
    ["NotFoundError (404)", new NotFoundError("x"), "not-sent"],
    ["InvalidDataError (400)", new InvalidDataError("x"), "not-sent"],
    ["RateLimitError (429)", new RateLimitError("x"), "not-sent"],
    ["ServiceError, refused connection", new ServiceError("x", { delivery: "not-sent" }), "not-sent"],
    ["ServiceError, 5xx or timeout", new ServiceError("x"), "maybe-received"],
    ["UnexpectedResponseError: it answered", new UnexpectedResponseError("x"), "maybe-received"],
    [
      "UnexpectedResponseError told not-sent (a 301/302/307/308 redirect: not processed)",
      new UnexpectedResponseError("x", { delivery: "not-sent" }),
      "not-sent",
    ],
    ["InterruptedError (Ctrl-C mid-request)", new InterruptedError(), "maybe-received"],
    ["WaitTimeoutError", new WaitTimeoutError("x"), "maybe-received"],
    ["ImportFailedError", new ImportFailedError("x"), "maybe-received"],
  ] as const)("%s: %s", (_name, error, delivery) => {
    expect(error.delivery).toBe(delivery);
  });

  it("rephrase keeps the class, exit code, delivery and details, with the original as cause", () => {
    const original = new RateLimitError("429 from reports", { hint: "wait", retryAfterMs: 4000 });
    const told = original.rephrase("batch 2 was not received", "then resume");
    expect(told).toBeInstanceOf(RateLimitError);
    expect(told.exitCode).toBe(7);
    expect(told.delivery).toBe("not-sent");
    expect(told.retryAfterMs).toBe(4000);
    expect(told.message).toBe("batch 2 was not received");
    expect(told.hint).toBe("then resume");
    expect(told.cause).toBe(original);
    const service = new ServiceError("refused", { delivery: "not-sent", status: 503 }).rephrase("m", undefined);
    expect(service).toBeInstanceOf(ServiceError);
    expect({ delivery: service.delivery, status: service.status, hint: service.hint }).toEqual({
      delivery: "not-sent",
      status: 503,
      hint: undefined,
    });
  });
});
