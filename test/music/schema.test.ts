import { describe, expect, test } from "vitest";
import * as music from "../../src/music/index";

describe("music schemas", () => {
  test("audioRequest keeps unknown fields and accepts any model or action string", () => {
    const body = { model: "chirp-v6", action: "add_stem", stem_type: "drums", callback_url: "https://h" };
    expect(music.audioRequest.parse(body)).toEqual(body);
  });

  test("audioRequest rejects wrong wire types", () => {
    expect(music.audioRequest.safeParse({ async: "true" }).success).toBe(false);
    expect(music.audioRequest.safeParse({ audio_urls: [1] }).success).toBe(false);
  });

  test("audioRequest fills no defaults", () => {
    expect(music.audioRequest.parse({})).toEqual({});
  });

  test("submitResponse is success and task_id", () => {
    expect(music.submitResponse.safeParse({ success: true, task_id: "t1" }).success).toBe(true);
    expect(music.submitResponse.safeParse({ success: true }).success).toBe(false);
  });

  test("tasksRequest has a retrieve and a retrieve_batch form", () => {
    expect(music.tasksRequest.safeParse({ action: "retrieve", id: "t1" }).success).toBe(true);
    expect(music.tasksRequest.safeParse({ action: "retrieve_batch", ids: ["t1", "t2"] }).success).toBe(true);
    expect(music.tasksRequest.safeParse({ action: "retrieve_batch", id: "t1" }).success).toBe(false);
    expect(music.tasksRequest.safeParse({ action: "delete", id: "t1" }).success).toBe(false);
  });

  test.each([
    { id: "t1", status: "submitted" },
    { id: "t1", status: "queued" },
    { id: "t1", status: "in_progress" },
    {
      id: "t1",
      status: "success",
      data: {
        audio_url: "https://cdn/a.mp3",
        title: "Night",
        text: "[Verse]",
        duration: 154.92,
        model_name: "chirp-v4",
      },
    },
    { id: "t1", status: "failed", error: "content violation" },
    { id: "t1", status: "streaming", vendor_field: 1 },
  ])("task parses state $status", (value) => {
    expect(music.task.parse(value)).toEqual(value);
  });

  test("taskBatch is items and count as returned", () => {
    const batch = { items: [{ id: "a", status: "queued" }], count: 5 };
    expect(music.taskBatch.parse(batch)).toEqual(batch);
  });

  test("lyricsResponse accepts one candidate or an array of them", () => {
    expect(
      music.lyricsResponse.safeParse({ success: true, data: { text: "la", status: "complete" } }).success,
    ).toBe(true);
    expect(
      music.lyricsResponse.safeParse({ success: true, data: [{ text: "la", tags: ["pop"] }] }).success,
    ).toBe(true);
    expect(music.lyricsRequest.safeParse({ model: "default" }).success).toBe(false);
  });

  test("upload and persona requests and responses", () => {
    expect(music.uploadRequest.safeParse({ audio_url: "https://a/b.mp3" }).success).toBe(true);
    expect(
      music.uploadResponse.safeParse({ success: true, task_id: "t", data: { audio_id: "u1" } }).success,
    ).toBe(true);
    expect(
      music.personaRequest.safeParse({ audio_id: "u1", name: "Alto", vocal_start: 0, vocal_end: 30 }).success,
    ).toBe(true);
    expect(music.personaRequest.safeParse({ audio_id: "u1" }).success).toBe(false);
    expect(
      music.personaResponse.safeParse({ success: true, task_id: "t", data: { persona_id: "p1" } }).success,
    ).toBe(true);
    expect(
      music.personaListResponse.safeParse({ success: true, data: { items: [{ persona_id: "p1" }] } }).success,
    ).toBe(true);
  });

  test("helper endpoint requests and responses", () => {
    const ok = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
      expect(schema.safeParse(value).success).toBe(true);
    ok(music.voicesRequest, { audio_url: "https://a" });
    ok(music.styleResponse, { success: true, data: { upsampled_tags: "pop, upbeat" } });
    ok(music.mashupLyricsRequest, { lyrics_a: "a", lyrics_b: "b" });
    ok(music.wavResponse, { success: true, task_id: "t", data: [{ file_url: "https://f.wav" }] });
    ok(music.mp4Response, { success: true, data: { video_url: "https://v.mp4" } });
    ok(music.midiResponse, {
      success: true,
      data: [
        {
          state: "complete",
          instruments: [{ name: "bass", notes: [{ pitch: 40, start: 0, end: 0.5, velocity: 90 }] }],
        },
      ],
    });
    ok(music.timingResponse, {
      success: true,
      data: { aligned_words: [{ word: "la", success: true, start_s: 1.2, end_s: 1.5, p_align: 0.9 }] },
    });
    ok(music.voxRequest, { audio_id: "a1", vocal_start: 0, vocal_end: 20 });
    ok(music.voxResponse, { success: true, data: { id: "v1", vocal_start_s: 0, vocal_end_s: 20 } });
    expect(music.timingRequest.safeParse({}).success).toBe(false);
  });

  test("errorBody is the flat {success: false, error, message}", () => {
    expect(music.errorBody.safeParse({ success: false, error: "prompt_empty", message: "m" }).success).toBe(
      true,
    );
    expect(music.errorBody.safeParse({ success: true, error: "x", message: "m" }).success).toBe(false);
    expect(
      music.errorBody.safeParse({ success: false, error: { code: "bad_request", message: "m" } }).success,
    ).toBe(false);
  });

  test("every validator rejection parses as an errorBody", () => {
    const result = music.validateAudioRequest({ action: "stems" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(music.errorBody.parse(result.body)).toEqual(result.body);
  });
});
