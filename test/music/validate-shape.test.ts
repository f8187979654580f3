import { describe, expect, test } from "vitest";
import { validateAudioRequest } from "../../src/music/validate";
import { codeOf, messageOf } from "./helpers";

describe("non-object bodies", () => {
  test.each([
    ["null", null],
    ["undefined", undefined],
    ["an array", [{ prompt: "x" }]],
    ["a string", '{"prompt":"x"}'],
    ["a number", 42],
    ["a boolean", true],
  ])("rejects %s as invalid_request", (_label, body) => {
    expect(codeOf(body)).toBe("invalid_request");
    expect(messageOf(body)).toContain("JSON object");
  });

  test("rejects an object whose getter throws instead of throwing", () => {
    const body = Object.defineProperty({}, "prompt", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(codeOf(body)).toBe("invalid_request");
  });
});

describe("wrong types are never coerced", () => {
  test.each([
    ["async", "true"],
    ["custom", "true"],
    ["instrumental", "false"],
    ["duration", "30"],
    ["continue_at", "30"],
    ["prompt", 30],
    ["model", 4],
    ["action", null],
    ["audio_id", ["a1"]],
    ["custom", 1],
  ])("%s = %j is invalid_parameter naming the field and its type", (field, value) => {
    const body = { custom: true, lyric: "la", style: "pop", [field]: value };
    expect(codeOf(body)).toBe("invalid_parameter");
    expect(messageOf(body)).toContain(`\`${field}\``);
  });

  test("names the expected type and the model", () => {
    expect(messageOf({ model: "chirp-v5", prompt: "x", async: "true" })).toMatch(/boolean.*chirp-v5/);
    expect(messageOf({ custom: true, lyric: "la", style: "pop", duration: "30" })).toMatch(
      /number.*chirp-v4/,
    );
  });

  test("rejects non-finite numbers", () => {
    expect(codeOf({ custom: true, lyric: "la", style: "pop", duration: Number.NaN })).toBe(
      "invalid_parameter",
    );
    expect(codeOf({ action: "extend", audio_id: "a", continue_at: Number.POSITIVE_INFINITY })).toBe(
      "invalid_parameter",
    );
  });
});

describe("model and action", () => {
  test.each(["chirp-v6", "CHIRP-V4", "", "chirp-v3-0", "toString", "__proto__", "constructor"])(
    "rejects model %j as model_not_supported",
    (model) => {
      expect(codeOf({ model, prompt: "x" })).toBe("model_not_supported");
    },
  );

  test.each(["Generate", "", "add_stem", "toString", "retrieve"])(
    "rejects action %j as action_not_supported",
    (action) => {
      expect(codeOf({ action, prompt: "x" })).toBe("action_not_supported");
    },
  );

  test("names the rejected model and the supported ones", () => {
    const message = messageOf({ model: "chirp-v6", prompt: "x" });
    expect(message).toContain("chirp-v6");
    expect(message).toContain("chirp-v5-5");
  });

  test("cuts a huge rejected value short in the message", () => {
    expect(messageOf({ model: "m".repeat(1_000_000), prompt: "x" }).length).toBeLessThan(300);
  });
});

describe("the returned value", () => {
  test("fills model, action and async when absent", () => {
    expect(validateAudioRequest({ prompt: "a song" })).toEqual({
      ok: true,
      value: { prompt: "a song", model: "chirp-v4", action: "generate", async: false },
    });
  });

  test("keeps explicit values, false and 0 included", () => {
    const body = {
      model: "chirp-v5-5",
      action: "underpainting",
      async: true,
      audio_id: "a1",
      underpainting_start: 0,
      underpainting_end: 12,
      instrumental: false,
    };
    expect(validateAudioRequest(body)).toEqual({ ok: true, value: body });
    expect(validateAudioRequest({ prompt: "x", async: false, custom: false })).toEqual({
      ok: true,
      value: { prompt: "x", async: false, custom: false, model: "chirp-v4", action: "generate" },
    });
  });

  test("keeps unknown fields and never trims strings", () => {
    const body = {
      prompt: "  spaced prompt \n",
      callback_url: "https://example.com/hook",
      negative_tags: "metal",
      nested: { a: [1, null] },
      style_negative: "",
    };
    const result = validateAudioRequest(body);
    expect(result).toEqual({
      ok: true,
      value: { ...body, model: "chirp-v4", action: "generate", async: false },
    });
  });

  test("is a new object and leaves the input untouched", () => {
    const body = { prompt: "x" };
    const frozen = Object.freeze(body);
    const result = validateAudioRequest(frozen);
    expect(result.ok && result.value).not.toBe(body);
    expect(body).toEqual({ prompt: "x" });
  });

  test("keeps a __proto__ key as an own field without touching prototypes", () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "prompt": "x"}');
    const result = validateAudioRequest(body);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.hasOwn(result.value, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("does not read known fields through the prototype", () => {
    const body = Object.create({ model: "chirp-v9", prompt: "inherited" });
    expect(codeOf(body)).toBe("prompt_empty");
  });
});

describe("precedence", () => {
  test("type errors come before the model, the model before the action, the action before requirements", () => {
    expect(codeOf({ model: "nope", async: "true" })).toBe("invalid_parameter");
    expect(codeOf({ model: "nope", action: "nope" })).toBe("model_not_supported");
    expect(codeOf({ action: "nope" })).toBe("action_not_supported");
    expect(codeOf({ action: "stems", duration: 5 })).toBe("audio_id_required");
  });

  test("ranges come before lengths", () => {
    expect(codeOf({ prompt: "p".repeat(600), duration: 30 })).toBe("invalid_parameter");
  });
});
