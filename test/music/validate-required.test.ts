import { describe, expect, test } from "vitest";
import { validateAudioRequest } from "../../src/music/validate";
import { codeOf, messageOf, without } from "./helpers";

type Case = { body: Record<string, unknown>; required: ReadonlyArray<readonly [string, string]> };

// Every action of spec 4.1 with a minimal valid body and the code its missing fields get (research 2).
const actions: Record<string, Case> = {
  generate: { body: { prompt: "a calm piano piece" }, required: [["prompt", "prompt_empty"]] },
  extend: {
    body: { action: "extend", audio_id: "a1", continue_at: 30 },
    required: [
      ["audio_id", "audio_id_required"],
      ["continue_at", "missing_parameter"],
    ],
  },
  concat: { body: { action: "concat", audio_id: "a1" }, required: [["audio_id", "audio_id_required"]] },
  cover: { body: { action: "cover", audio_id: "a1" }, required: [["audio_id", "audio_id_required"]] },
  upload_cover: {
    body: { action: "upload_cover", audio_id: "u1" },
    required: [["audio_id", "audio_id_required"]],
  },
  upload_extend: {
    body: { action: "upload_extend", audio_id: "u1", continue_at: 12.5 },
    required: [
      ["audio_id", "audio_id_required"],
      ["continue_at", "missing_parameter"],
    ],
  },
  artist_consistency: {
    body: { action: "artist_consistency", persona_id: "p1", lyric: "[Verse] hello" },
    required: [
      ["persona_id", "missing_parameter"],
      ["lyric", "prompt_empty"],
    ],
  },
  artist_consistency_vox: {
    body: { action: "artist_consistency_vox", persona_id: "p1", prompt: "a ballad" },
    required: [
      ["persona_id", "missing_parameter"],
      ["prompt", "prompt_empty"],
    ],
  },
  stems: { body: { action: "stems", audio_id: "a1" }, required: [["audio_id", "audio_id_required"]] },
  all_stems: { body: { action: "all_stems", audio_id: "a1" }, required: [["audio_id", "audio_id_required"]] },
  replace_section: {
    body: {
      action: "replace_section",
      audio_id: "a1",
      replace_section_start: 28.9,
      replace_section_end: 85.4,
    },
    required: [
      ["audio_id", "audio_id_required"],
      ["replace_section_start", "missing_parameter"],
      ["replace_section_end", "missing_parameter"],
    ],
  },
  underpainting: {
    body: { action: "underpainting", audio_id: "a1", underpainting_start: 0, underpainting_end: 120 },
    required: [
      ["audio_id", "audio_id_required"],
      ["underpainting_end", "missing_parameter"],
    ],
  },
  overpainting: {
    body: { action: "overpainting", audio_id: "a1", overpainting_start: 0, overpainting_end: 120 },
    required: [
      ["audio_id", "audio_id_required"],
      ["overpainting_end", "missing_parameter"],
    ],
  },
  samples: {
    body: { action: "samples", audio_id: "a1", samples_start: 59.88, samples_end: 102.16 },
    required: [
      ["audio_id", "audio_id_required"],
      ["samples_start", "missing_parameter"],
      ["samples_end", "missing_parameter"],
    ],
  },
  remaster: { body: { action: "remaster", audio_id: "a1" }, required: [["audio_id", "audio_id_required"]] },
  mashup: {
    body: { action: "mashup", mashup_audio_ids: ["a1", "a2"] },
    required: [["mashup_audio_ids", "missing_parameter"]],
  },
  inspo: {
    body: { action: "inspo", audio_urls: ["https://cdn.example/a.mp3"] },
    required: [["audio_urls", "missing_parameter"]],
  },
};

const blanks = ["", " ", "\t\n", "\u00a0\u3000"];

describe.each(Object.entries(actions))("action %s", (action, { body, required }) => {
  test("accepts the body with its required fields", () => {
    expect(codeOf(body)).toBe("ok");
  });

  test.each(required)(
    "rejects the body without %s as %s, naming the field, action and model",
    (field, code) => {
      expect(codeOf(without(body, field))).toBe(code);
      const message = messageOf(without(body, field));
      expect(message).toContain(field);
      expect(message).toContain(action);
      expect(message).toContain("chirp-v4");
    },
  );

  const textFields = required.filter(([field]) => typeof body[field] === "string");
  if (textFields.length > 0) {
    test.each(
      textFields.flatMap(([field, code]) =>
        blanks.map((blank) => [field, JSON.stringify(blank), blank, code]),
      ),
    )("treats %s = %s as missing", (field, _label, blank, code) => {
      expect(codeOf({ ...body, [field]: blank })).toBe(code);
    });
  }
});

test("covers all 17 actions of spec 4.1", () => {
  expect(Object.keys(actions)).toHaveLength(17);
});

describe("generate", () => {
  test("needs lyric and style with custom true, and no prompt", () => {
    expect(codeOf({ custom: true, lyric: "[Verse] la", style: "pop" })).toBe("ok");
    expect(codeOf({ custom: true, style: "pop" })).toBe("missing_parameter");
    expect(codeOf({ custom: true, lyric: "[Verse] la" })).toBe("missing_parameter");
    expect(codeOf({ custom: true, lyric: "  ", style: "pop" })).toBe("missing_parameter");
    expect(codeOf({ custom: true, lyric: "[Verse] la", style: "\n" })).toBe("missing_parameter");
    expect(messageOf({ custom: true, style: "pop" })).toContain("`lyric`");
    expect(messageOf({ custom: true, lyric: "[Verse] la" })).toContain("`style`");
  });

  test("needs only style when custom and instrumental are both true", () => {
    expect(codeOf({ custom: true, instrumental: true, style: "lo-fi" })).toBe("ok");
    expect(codeOf({ custom: true, instrumental: true })).toBe("missing_parameter");
  });

  test("keeps a prompt sent along with custom mode", () => {
    const result = validateAudioRequest({
      custom: true,
      lyric: "[Verse] la",
      style: "pop",
      prompt: "ignored",
    });
    expect(result).toMatchObject({ ok: true, value: { prompt: "ignored" } });
  });

  test("does not let lyric or style replace the prompt outside custom mode", () => {
    expect(codeOf({ lyric: "[Verse] la", style: "pop" })).toBe("prompt_empty");
    expect(codeOf({ custom: false, lyric: "[Verse] la" })).toBe("prompt_empty");
    expect(codeOf({})).toBe("prompt_empty");
  });

  test("treats U+200B as a non-blank prompt, since trim() keeps it", () => {
    expect(codeOf({ prompt: "\u200b" })).toBe("ok");
  });
});

describe("artist_consistency", () => {
  test("accepts either lyric or prompt and needs one that is not blank", () => {
    const base = { action: "artist_consistency", persona_id: "p1" };
    expect(codeOf({ ...base, prompt: "a ballad" })).toBe("ok");
    expect(codeOf({ ...base, lyric: "[Chorus] oh" })).toBe("ok");
    expect(codeOf(base)).toBe("prompt_empty");
    expect(codeOf({ ...base, lyric: " ", prompt: "\t" })).toBe("prompt_empty");
  });

  test("treats a blank persona_id as missing", () => {
    expect(codeOf({ action: "artist_consistency", persona_id: " ", lyric: "la" })).toBe("missing_parameter");
  });
});

test("an empty mashup_audio_ids is present but out of range", () => {
  expect(codeOf({ action: "mashup", mashup_audio_ids: [] })).toBe("invalid_parameter");
  expect(codeOf({ action: "mashup", mashup_audio_ids: ["only-one"] })).toBe("invalid_parameter");
});

test("reports audio_id before continue_at when both are missing", () => {
  expect(codeOf({ action: "extend" })).toBe("audio_id_required");
});
