import { describe, expect, test } from "vitest";
import { modelIds, modelLimits } from "../../src/music/limits";
import { codeOf, messageOf } from "./helpers";

const custom = { custom: true, lyric: "[Verse] la", style: "pop" };

describe.each(modelIds)("model %s", (model) => {
  const limits = modelLimits[model];

  test.each(["lyric", "style", "title"] as const)(
    "accepts %s exactly at the limit and rejects one past it",
    (field) => {
      const limit = limits[field];
      expect(codeOf({ ...custom, model, [field]: "a".repeat(limit) })).toBe("ok");
      expect(codeOf({ ...custom, model, [field]: "a".repeat(limit + 1) })).toBe(`${field}_too_long`);
    },
  );

  test.each(["lyric", "style", "title"] as const)(
    "names %s, its length, the limit and the model",
    (field) => {
      const limit = limits[field];
      const message = messageOf({ ...custom, model, [field]: "a".repeat(limit + 1) });
      expect(message).toContain(`\`${field}\``);
      expect(message).toContain(String(limit + 1));
      expect(message).toContain(String(limit));
      expect(message).toContain(model);
    },
  );

  test("limits the non-custom prompt to 500 characters", () => {
    expect(codeOf({ model, prompt: "p".repeat(500) })).toBe("ok");
    expect(codeOf({ model, prompt: "p".repeat(501) })).toBe("prompt_too_long");
  });
});

test("the limits are spec table 2.2", () => {
  expect(modelLimits).toEqual({
    "chirp-v5-5": { maxDurationSeconds: 480, lyric: 5000, style: 1000, title: 100 },
    "chirp-v5": { maxDurationSeconds: 480, lyric: 5000, style: 1000, title: 100 },
    "chirp-v4-5-plus": { maxDurationSeconds: 480, lyric: 5000, style: 1000, title: 100 },
    "chirp-v4-5": { maxDurationSeconds: 240, lyric: 5000, style: 1000, title: 100 },
    "chirp-v4": { maxDurationSeconds: 150, lyric: 3000, style: 200, title: 80 },
    "chirp-v3-5": { maxDurationSeconds: 120, lyric: 3000, style: 200, title: 80 },
  });
});

describe("prompt", () => {
  test("at 501 names the field, the limit and the default model", () => {
    const message = messageOf({ prompt: "p".repeat(501) });
    expect(message).toContain("`prompt`");
    expect(message).toContain("501");
    expect(message).toContain("500");
    expect(message).toContain("chirp-v4");
  });

  test("has no 500 limit in custom mode", () => {
    expect(codeOf({ ...custom, prompt: "p".repeat(501) })).toBe("ok");
  });

  test("keeps the 500 limit on other actions outside custom mode", () => {
    const body = { action: "artist_consistency", persona_id: "p1", prompt: "p".repeat(501) };
    expect(codeOf(body)).toBe("prompt_too_long");
  });

  test("applies lyric, style and title limits outside custom mode too", () => {
    expect(codeOf({ prompt: "x", title: "t".repeat(81) })).toBe("title_too_long");
  });
});

describe("character counting in UTF-16 code units", () => {
  test("counts a BMP CJK character as 1", () => {
    expect(codeOf({ prompt: "歌".repeat(500) })).toBe("ok");
    expect(codeOf({ prompt: "歌".repeat(501) })).toBe("prompt_too_long");
    expect(codeOf({ ...custom, title: `${"夜の歌".repeat(26)}歌歌` })).toBe("ok");
    expect(codeOf({ ...custom, title: "夜の歌".repeat(27) })).toBe("title_too_long");
  });

  test("counts an emoji outside the BMP as 2", () => {
    expect(codeOf({ prompt: "🎵".repeat(250) })).toBe("ok");
    expect(codeOf({ prompt: `${"🎵".repeat(250)}a` })).toBe("prompt_too_long");
    expect(codeOf({ ...custom, title: "🎵".repeat(40) })).toBe("ok");
    expect(codeOf({ ...custom, title: "🎵".repeat(41) })).toBe("title_too_long");
    expect(messageOf({ ...custom, title: "🎵".repeat(41) })).toContain("82");
  });

  test("counts CJK Extension B (outside the BMP) as 2 and a combining accent as its own unit", () => {
    expect(codeOf({ ...custom, style: "\u{20000}".repeat(100) })).toBe("ok");
    expect(codeOf({ ...custom, style: `${"\u{20000}".repeat(100)}a` })).toBe("style_too_long");
    expect(codeOf({ ...custom, style: "e\u0301".repeat(100) })).toBe("ok");
    expect(codeOf({ ...custom, style: `${"e\u0301".repeat(100)}e` })).toBe("style_too_long");
  });

  test("counts a mixed CJK and emoji lyric exactly at the v5 limit", () => {
    const lyric = `${"歌".repeat(4998)}🎵`;
    expect(lyric.length).toBe(5000);
    expect(codeOf({ ...custom, model: "chirp-v5", lyric })).toBe("ok");
    expect(codeOf({ ...custom, model: "chirp-v5", lyric: `${lyric}歌` })).toBe("lyric_too_long");
  });
});

describe("duration", () => {
  test.each([
    [9, "invalid_parameter"],
    [10, "ok"],
    [360, "ok"],
    [361, "invalid_parameter"],
    [30.5, "invalid_parameter"],
    [0, "invalid_parameter"],
  ])("duration %s with custom true gives %s", (duration, code) => {
    expect(codeOf({ ...custom, duration })).toBe(code);
  });

  test("is rejected without custom true, even in range", () => {
    expect(codeOf({ prompt: "x", duration: 30 })).toBe("invalid_parameter");
    expect(codeOf({ prompt: "x", custom: false, duration: 30 })).toBe("invalid_parameter");
    expect(messageOf({ prompt: "x", duration: 30 })).toContain("custom");
  });

  test("is not checked against the model's maximum duration (a hint only)", () => {
    expect(codeOf({ ...custom, model: "chirp-v3-5", duration: 300 })).toBe("ok");
  });

  test("names the field, the range and the model", () => {
    const message = messageOf({ ...custom, model: "chirp-v4-5", duration: 361 });
    expect(message).toContain("`duration`");
    expect(message).toContain("10 to 360");
    expect(message).toContain("chirp-v4-5");
  });
});

describe("audio_urls", () => {
  const urls = (count: number) =>
    Array.from({ length: count }, (_, index) => `https://cdn.example/${index}.mp3`);

  test.each([
    [0, "invalid_parameter"],
    [1, "ok"],
    [4, "ok"],
    [5, "invalid_parameter"],
  ])("%s URLs on inspo gives %s", (count, code) => {
    expect(codeOf({ action: "inspo", audio_urls: urls(count) })).toBe(code);
  });

  test("rejects non-string items and a non-array", () => {
    expect(codeOf({ action: "inspo", audio_urls: ["https://a", 3] })).toBe("invalid_parameter");
    expect(codeOf({ action: "inspo", audio_urls: "https://a" })).toBe("invalid_parameter");
  });

  test("names the field, the range and the model", () => {
    const message = messageOf({ action: "inspo", model: "chirp-v5", audio_urls: urls(5) });
    expect(message).toContain("`audio_urls`");
    expect(message).toContain("1 to 4");
    expect(message).toContain("chirp-v5");
  });
});

describe("mashup_audio_ids", () => {
  test("accepts two or more ids and rejects non-string items", () => {
    expect(codeOf({ action: "mashup", mashup_audio_ids: ["a", "b", "c", "d", "e"] })).toBe("ok");
    expect(codeOf({ action: "mashup", mashup_audio_ids: ["a", 2] })).toBe("invalid_parameter");
  });
});

describe("continue_at and time ranges", () => {
  test.each([
    [0.1, "ok"],
    [9999.5, "ok"],
    [0, "invalid_parameter"],
    [-1, "invalid_parameter"],
    ["30", "invalid_parameter"],
  ])("continue_at %s gives %s", (continueAt, code) => {
    expect(codeOf({ action: "extend", audio_id: "a1", continue_at: continueAt })).toBe(code);
  });

  test.each(["replace_section", "underpainting", "overpainting", "samples"])(
    "%s needs 0 <= start < end",
    (range) => {
      const body = (start: unknown, end: unknown) => ({
        action: range,
        audio_id: "a1",
        [`${range}_start`]: start,
        [`${range}_end`]: end,
      });
      expect(codeOf(body(0, 0.5))).toBe("ok");
      expect(codeOf(body(10, 10))).toBe("invalid_parameter");
      expect(codeOf(body(20, 10))).toBe("invalid_parameter");
      expect(codeOf(body(-1, 10))).toBe("invalid_parameter");
      expect(codeOf(body("10", 20))).toBe("invalid_parameter");
      expect(messageOf(body(20, 10))).toContain(`\`${range}_end\``);
    },
  );
});

test.each(["underpainting", "overpainting"])(
  "%s accepts an end without a start, as the upstream's own examples send",
  (range) => {
    expect(codeOf({ action: range, audio_id: "a1", [`${range}_end`]: 120 })).toBe("ok");
    expect(codeOf({ action: range, audio_id: "a1", [`${range}_start`]: 10 })).toBe("missing_parameter");
  },
);

describe("voice fields", () => {
  test.each([
    ["vocal_gender", "f", "ok"],
    ["vocal_gender", "m", "ok"],
    ["vocal_gender", "", "invalid_parameter"],
    ["vocal_gender", "F", "invalid_parameter"],
    ["variation_category", "high", "ok"],
    ["variation_category", "normal", "ok"],
    ["variation_category", "subtle", "ok"],
    ["variation_category", "extreme", "invalid_parameter"],
    ["persona_id", "p1", "ok"],
    ["persona_id", 7, "invalid_parameter"],
  ])("%s %j gives %s", (field, value, code) => {
    expect(codeOf({ prompt: "x", [field]: value })).toBe(code);
  });

  test("weirdness, style_influence and audio_weight run from 0 to 1", () => {
    expect(codeOf({ prompt: "x", weirdness: 0, style_influence: 1, audio_weight: 0.5 })).toBe("ok");
    expect(codeOf({ prompt: "x", weirdness: 1.5 })).toBe("invalid_parameter");
    expect(codeOf({ prompt: "x", audio_weight: -0.1 })).toBe("invalid_parameter");
  });
});
