import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { base64ToText, bytesToBase64, textToBase64 } from "../../../src/protocols/messages/base64";

const binary = (bytes: Uint8Array): string => Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");

describe("base64 for text/plain document sources", () => {
  // The plain-JavaScript encoder is what runtimes without a native Buffer use; node takes the native path.
  test.prop([fc.uint8Array({ maxLength: 300 })])("bytesToBase64 agrees with btoa on any bytes", (bytes) => {
    expect(bytesToBase64(bytes)).toBe(btoa(binary(bytes)));
  });

  test.prop([fc.string({ unit: "binary", maxLength: 200 })])(
    "textToBase64 is the base64 of the text's UTF-8 bytes, on both paths",
    (text) => {
      const bytes = new TextEncoder().encode(text);
      expect(textToBase64(text)).toBe(btoa(binary(bytes)));
      expect(bytesToBase64(bytes)).toBe(textToBase64(text));
    },
  );

  test.prop([fc.string({ unit: "grapheme", maxLength: 200 })])(
    "base64ToText inverts textToBase64",
    (text) => {
      expect(base64ToText(textToBase64(text))).toBe(text);
    },
  );

  test("padding for one and two trailing bytes", () => {
    expect(bytesToBase64(new Uint8Array([0xff]))).toBe("/w==");
    expect(bytesToBase64(new Uint8Array([0xff, 0xee]))).toBe("/+4=");
    expect(textToBase64("")).toBe("");
  });

  test("base64ToText refuses what is not base64 or not UTF-8", () => {
    expect(base64ToText("not base64!")).toBeUndefined();
    expect(base64ToText(btoa("\xff\xfe"))).toBeUndefined();
  });
});
