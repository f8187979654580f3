/**
 * The tool-pairing check decides the common case without allocating (`pairsUp`) and falls back to the
 * map-based reference for everything else: the two must give the same answer — the same first
 * problem, message and path, or none — on every history, including duplicate ids, results before
 * any call, results inside assistant turns, server calls and calls without ids.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import type * as common from "../../src/common/model";
import {
  findToolPairingProblem,
  findToolPairingProblemByMaps,
  findToolPairingProblems,
} from "../../src/common/tool-pairing";
import { runs } from "../helpers/tier";

const ids = fc.constantFrom("a", "b", "c", undefined);

const part: fc.Arbitrary<common.Part> = fc.oneof(
  fc
    .record({ id: ids, server: fc.boolean(), source: fc.constantFrom("/p0", "/p1", "/p2") })
    .map(({ id, server, source }): common.Part => {
      const call: { -readonly [K in keyof common.ToolCallPart]: common.ToolCallPart[K] } = {
        type: "tool-call",
        name: "f",
        source,
      };
      if (id !== undefined) call.id = id;
      if (server) call.server = { origin: "messages", raw: {} };
      return call;
    }),
  fc
    .record({ callId: ids, source: fc.constantFrom("/r0", "/r1", "/r2") })
    .map(
      ({ callId, source }): common.Part =>
        callId === undefined
          ? { type: "tool-result", content: [], source }
          : { type: "tool-result", callId, content: [], source },
    ),
  fc.constant<common.Part>({ type: "text", text: "x", source: "/t" }),
);

const message: fc.Arbitrary<common.Message> = fc.record({
  role: fc.constantFrom("user" as const, "assistant" as const),
  parts: fc.array(part, { maxLength: 4 }),
  source: fc.constantFrom("/messages/0", "/messages/1"),
});

/** Histories that pair up as real ones do, so the fast path is taken, not only the fallback. */
const paired: fc.Arbitrary<common.Message[]> = fc
  .array(fc.integer({ min: 0, max: 3 }), { maxLength: 6 })
  .map((counts) =>
    counts.flatMap((count, turn): common.Message[] => {
      const callIds = Array.from({ length: count }, (_, at) => `t${turn}_${at}`);
      return [
        { role: "user", parts: [{ type: "text", text: "q", source: "/u" }], source: "/u" },
        {
          role: "assistant",
          parts: callIds.map((id): common.Part => ({ type: "tool-call", id, name: "f", source: `/${id}` })),
          source: "/a",
        },
        {
          role: "user",
          parts: [...callIds]
            .reverse()
            .map((id): common.Part => ({ type: "tool-result", callId: id, content: [], source: `/r${id}` })),
          source: "/r",
        },
      ];
    }),
  );

/** Turn-shaped histories whose results are drawn from the calls' ids with repeats and strays. */
const nearlyPaired: fc.Arbitrary<common.Message[]> = fc
  .array(
    fc.record({
      calls: fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 3 }),
      results: fc.array(fc.constantFrom("a", "b", "c", "z"), { maxLength: 4 }),
      split: fc.boolean(),
    }),
    { maxLength: 4 },
  )
  .map((turns) =>
    turns.flatMap(({ calls, results, split }): common.Message[] => {
      const resultParts = results.map(
        (id, at): common.Part => ({ type: "tool-result", callId: id, content: [], source: `/r${at}${id}` }),
      );
      const half = split ? resultParts.length >> 1 : resultParts.length;
      return [
        {
          role: "assistant",
          parts: calls.map(
            (id, at): common.Part => ({ type: "tool-call", id, name: "f", source: `/c${at}${id}` }),
          ),
          source: "/a",
        },
        { role: "user", parts: resultParts.slice(0, half), source: "/r" },
        ...(split ? [{ role: "user" as const, parts: resultParts.slice(half), source: "/s" }] : []),
      ];
    }),
  );

const request = (messages: common.Message[]): common.Request => ({
  model: "m",
  stream: false,
  system: [],
  messages,
  tools: [],
});

test("the allocation-free check agrees with the map-based reference on any history", () => {
  fc.assert(
    fc.property(fc.oneof(fc.array(message, { maxLength: 8 }), paired, nearlyPaired), (messages) => {
      const body = request(messages);
      expect(findToolPairingProblem(body)).toEqual(findToolPairingProblemByMaps(body));
    }),
    { numRuns: runs(5000) },
  );
});

test("a paired history is accepted, and a reordered or missing result is still named", () => {
  const call = (id: string): common.Part => ({ type: "tool-call", id, name: "f", source: `/c/${id}` });
  const result = (id: string): common.Part => ({
    type: "tool-result",
    callId: id,
    content: [],
    source: `/r/${id}`,
  });
  const turns = (results: common.Part[]): common.Request =>
    request([
      { role: "assistant", parts: [call("a"), call("b")], source: "/0" },
      { role: "user", parts: results, source: "/1" },
      { role: "assistant", parts: [], source: "/2" },
    ]);
  expect(findToolPairingProblem(turns([result("b"), result("a")]))).toBeUndefined();
  expect(findToolPairingProblem(turns([result("a")]))).toEqual({
    message: "tool call b has no tool result",
    path: "/c/b",
  });
  expect(findToolPairingProblem(turns([result("a"), result("a")]))).toEqual({
    message: "tool call a has more than one tool result",
    path: "/r/a",
  });
  expect(findToolPairingProblem(turns([result("a"), result("a"), result("b")]))).toEqual({
    message: "tool call a has more than one tool result",
    path: "/r/a",
  });
});

test("every problem is read in full: the first is the one the encoders throw for, none when it pairs up", () => {
  fc.assert(
    fc.property(fc.oneof(fc.array(message, { maxLength: 8 }), paired, nearlyPaired), (messages) => {
      const body = request(messages);
      const all = findToolPairingProblems(body, { calls: true, results: true });
      expect(all[0]).toEqual(findToolPairingProblem(body));
    }),
    { numRuns: runs(5000) },
  );
  const call = (id: string): common.Part => ({ type: "tool-call", id, name: "f", source: `/c/${id}` });
  const result = (id: string): common.Part => ({
    type: "tool-result",
    callId: id,
    content: [],
    source: `/r/${id}`,
  });
  expect(
    findToolPairingProblems(
      request([
        { role: "assistant", parts: [call("a"), call("b")], source: "/0" },
        { role: "user", parts: [result("z")], source: "/1" },
        { role: "assistant", parts: [call("c")], source: "/2" },
      ]),
      { calls: true, results: true },
    ),
  ).toEqual([
    { message: "tool result for z answers no tool call of the assistant turn before it", path: "/r/z" },
    { message: "tool call a has no tool result", path: "/c/a" },
    { message: "tool call b has no tool result", path: "/c/b" },
    { message: "tool call c has no tool result", path: "/c/c" },
  ]);
});
