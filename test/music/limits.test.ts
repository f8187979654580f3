import { describe, expect, test } from "vitest";
import {
  isTerminal,
  nextPollDelayMs,
  runtimeErrorCodes,
  statusOfErrorCode,
  taskStatuses,
  validationErrorCodes,
} from "../../src/music/limits";

describe("isTerminal", () => {
  test("only success and failed end a task", () => {
    expect(taskStatuses.filter(isTerminal)).toEqual(["success", "failed"]);
  });

  test("keeps polling on states it does not know", () => {
    expect(isTerminal("streaming")).toBe(false);
    expect(isTerminal("SUCCESS")).toBe(false);
    expect(isTerminal(undefined)).toBe(false);
  });
});

describe("nextPollDelayMs", () => {
  test("waits 2–3 s before the first poll", () => {
    const first = nextPollDelayMs(0);
    expect(first).toBeGreaterThanOrEqual(2000);
    expect(first).toBeLessThanOrEqual(3000);
  });

  test("then polls every 3–5 s, never faster, growing to 5 s", () => {
    const delays = Array.from({ length: 50 }, (_, index) => nextPollDelayMs(index + 1));
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(3000);
      expect(delay).toBeLessThanOrEqual(5000);
    }
    expect(delays.slice(0, 6)).toEqual([3000, 3500, 4000, 4500, 5000, 5000]);
    expect(delays.every((delay, index) => index === 0 || delay >= (delays[index - 1] ?? 0))).toBe(true);
  });

  test("is deterministic and total on odd attempt numbers", () => {
    expect(nextPollDelayMs(3)).toBe(nextPollDelayMs(3));
    expect(nextPollDelayMs(-4)).toBe(2500);
    expect(nextPollDelayMs(Number.NaN)).toBe(2500);
    expect(nextPollDelayMs(2.7)).toBe(nextPollDelayMs(2));
    expect(nextPollDelayMs(Number.POSITIVE_INFINITY)).toBe(5000);
  });
});

describe("statusOfErrorCode", () => {
  test("every validation code is 400", () => {
    for (const code of validationErrorCodes) expect(statusOfErrorCode[code]).toBe(400);
  });

  test("runtime codes: generation_failed is 502, quota_exceeded is 429", () => {
    expect(runtimeErrorCodes.map((code) => [code, statusOfErrorCode[code]])).toEqual([
      ["generation_failed", 502],
      ["quota_exceeded", 429],
    ]);
  });
});
