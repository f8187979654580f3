import { expect } from "vitest";
import { type AudioRequestResult, validateAudioRequest } from "../../src/music/validate";

/** The error code of a rejection, or "ok"; also checks the shape every rejection shares. */
export function codeOf(body: unknown): string {
  const result = validateAudioRequest(body);
  if (result.ok) return "ok";
  expect(result.status).toBe(400);
  expect(result.body.success).toBe(false);
  return result.body.error;
}

/** The message of a rejection (fails the test when the body was accepted). */
export function messageOf(body: unknown): string {
  const result: AudioRequestResult = validateAudioRequest(body);
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.value)}`);
  return result.body.message;
}

/** Body without `field`, built without `delete` on a shared object. */
export function without(body: Record<string, unknown>, field: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));
}
