import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ModelEntry, TokenScope, VisibilityPolicy } from "../../src/models/schema";
import { checkAccess, hiddenBy, visibleModels } from "../../src/models/visibility";

const entry = (id: string, over: Partial<ModelEntry> = {}): ModelEntry => ({
  id,
  owned_by: "openai",
  supported_endpoint_types: ["std"],
  groups: ["default"],
  hasChannel: true,
  listed: true,
  priced: true,
  ...over,
});
const open: TokenScope = { key: "sk-1", allowlist: null };
const policy: VisibilityPolicy = {
  userGroup: "default",
  strictMetadata: false,
  selfUse: false,
  acceptUnpriced: false,
};
const ids = (list: readonly ModelEntry[]) => list.map((model) => model.id);

describe("visibleModels: each filter alone", () => {
  test("with every filter passing, the whole catalog is visible in catalog order", () => {
    const catalog = [entry("b"), entry("a"), entry("c")];
    expect(ids(visibleModels(catalog, open, policy))).toEqual(["b", "a", "c"]);
  });

  test("(a) an enabled allowlist intersects the catalog", () => {
    const catalog = [entry("a"), entry("b"), entry("c")];
    expect(ids(visibleModels(catalog, { key: "k", allowlist: ["c", "a", "zzz"] }, policy))).toEqual([
      "a",
      "c",
    ]);
  });

  test("(a) an enabled but empty allowlist shows nothing", () => {
    expect(visibleModels([entry("a")], { key: "k", allowlist: [] }, policy)).toEqual([]);
  });

  test("(a) allowlist ids match exactly (case and hyphens)", () => {
    const catalog = [entry("gpt-4o"), entry("GPT-4o"), entry("gpt4o")];
    expect(ids(visibleModels(catalog, { key: "k", allowlist: ["gpt-4o"] }, policy))).toEqual(["gpt-4o"]);
  });

  test("(b) a model is visible through the user group or the token's group (union)", () => {
    const catalog = [
      entry("user", { groups: ["default"] }),
      entry("token", { groups: ["vip"] }),
      entry("none", { groups: ["x"] }),
    ];
    expect(ids(visibleModels(catalog, { ...open, group: "vip" }, policy))).toEqual(["user", "token"]);
    expect(ids(visibleModels(catalog, open, policy))).toEqual(["user"]);
  });

  test("(b) a model without a usable channel is omitted", () => {
    const catalog = [entry("a", { hasChannel: false }), entry("b")];
    expect(ids(visibleModels(catalog, open, policy))).toEqual(["b"]);
  });

  test("(c) an unlisted model is hidden only under strict metadata mode", () => {
    const catalog = [entry("a", { listed: false }), entry("b")];
    expect(ids(visibleModels(catalog, open, policy))).toEqual(["a", "b"]);
    expect(ids(visibleModels(catalog, open, { ...policy, strictMetadata: true }))).toEqual(["b"]);
  });

  test("(d) an unpriced model is hidden unless self-use mode or the account accepts unpriced models", () => {
    const catalog = [entry("a", { priced: false }), entry("b")];
    expect(ids(visibleModels(catalog, open, policy))).toEqual(["b"]);
    expect(ids(visibleModels(catalog, open, { ...policy, selfUse: true }))).toEqual(["a", "b"]);
    expect(ids(visibleModels(catalog, open, { ...policy, acceptUnpriced: true }))).toEqual(["a", "b"]);
  });

  test("an empty catalog gives an empty list", () => {
    expect(visibleModels([], open, policy)).toEqual([]);
  });
});

describe("visibleModels: filters combined, in order", () => {
  const strict: VisibilityPolicy = { ...policy, strictMetadata: true };
  const failing = entry("all", { groups: ["x"], hasChannel: false, listed: false, priced: false });

  test("hiddenBy names the first failing filter in spec order: allowlist, group, channel, listing, price", () => {
    const token: TokenScope = { key: "k", allowlist: ["other"] };
    expect(hiddenBy(failing, token, strict)).toBe("allowlist");
    expect(hiddenBy(failing, open, strict)).toBe("group");
    expect(hiddenBy({ ...failing, groups: ["default"] }, open, strict)).toBe("channel");
    expect(hiddenBy({ ...failing, groups: ["default"], hasChannel: true }, open, strict)).toBe("listing");
    expect(hiddenBy({ ...failing, groups: ["default"], hasChannel: true, listed: true }, open, strict)).toBe(
      "price",
    );
    expect(hiddenBy(entry("ok"), open, strict)).toBeUndefined();
  });

  test("a mixed catalog keeps only the models passing all four filters", () => {
    const catalog = [
      entry("pass"),
      entry("outside-allowlist"),
      entry("other-group", { groups: ["x"] }),
      entry("token-group", { groups: ["vip"] }),
      entry("no-channel", { hasChannel: false }),
      entry("unlisted", { listed: false }),
      entry("unpriced", { priced: false }),
    ];
    const token: TokenScope = {
      key: "k",
      allowlist: ["pass", "other-group", "token-group", "no-channel", "unlisted", "unpriced"],
      group: "vip",
    };
    expect(ids(visibleModels(catalog, token, strict))).toEqual(["pass", "token-group"]);
  });

  test("the input catalog is not mutated", () => {
    const catalog = [entry("a", { priced: false }), entry("b")];
    const copy = structuredClone(catalog);
    visibleModels(catalog, open, policy);
    expect(catalog).toEqual(copy);
  });
});

describe("checkAccess: spec section 7 texts", () => {
  const catalog = [entry("gpt-4o"), entry("dead", { hasChannel: false }), entry("hidden", { listed: false })];

  test("a visible model is allowed", () => {
    expect(checkAccess(catalog, open, policy, "gpt-4o")).toEqual({ ok: true });
  });

  test("an empty allowlist is 403 This token has no access to any models", () => {
    expect(checkAccess(catalog, { key: "k", allowlist: [] }, policy, "gpt-4o")).toEqual({
      ok: false,
      status: 403,
      message: "This token has no access to any models",
    });
  });

  test("a model outside the allowlist is 403 This token has no access to model {model}", () => {
    expect(checkAccess(catalog, { key: "k", allowlist: ["dead"] }, policy, "gpt-4o")).toEqual({
      ok: false,
      status: 403,
      message: "This token has no access to model gpt-4o",
    });
  });

  test.each([
    ["a model without a usable channel", "dead", policy],
    ["an unknown model", "nope", policy],
    ["a case variant of a known id", "GPT-4o", policy],
    ["an unlisted model under strict metadata mode", "hidden", { ...policy, strictMetadata: true }],
  ])("%s is 503 No valid upstream service", (_, model, rules) => {
    expect(checkAccess(catalog, open, rules, model)).toEqual({
      ok: false,
      status: 503,
      message: "No valid upstream service",
    });
  });

  test("an empty model is 400 Model name not specified", () => {
    expect(checkAccess(catalog, open, policy, "")).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/^Model name not specified/),
    });
  });

  test("the allowlist is checked before the channel", () => {
    expect(checkAccess(catalog, { key: "k", allowlist: ["gpt-4o"] }, policy, "dead")).toMatchObject({
      status: 403,
    });
  });
});

describe("visibility properties", () => {
  const modelArb = fc.record({
    id: fc.constantFrom("a", "b", "c", "d", "e"),
    owned_by: fc.constant("x"),
    supported_endpoint_types: fc.constant<string[]>(["std"]),
    groups: fc.subarray(["default", "vip", "x"]),
    hasChannel: fc.boolean(),
    listed: fc.boolean(),
    priced: fc.boolean(),
  });
  const tokenArb = fc.record(
    {
      key: fc.constant("k"),
      allowlist: fc.option(fc.subarray(["a", "b", "c", "d", "e", "f"]), { nil: null }),
      group: fc.constantFrom("default", "vip", "x", "y"),
    },
    { requiredKeys: ["key", "allowlist"] },
  );
  const policyArb = fc.record({
    userGroup: fc.constantFrom("default", "vip", "y"),
    strictMetadata: fc.boolean(),
    selfUse: fc.boolean(),
    acceptUnpriced: fc.boolean(),
  });

  test("visibleModels never returns a model outside the token's allowlist", () => {
    fc.assert(
      fc.property(fc.array(modelArb), tokenArb, policyArb, (catalog, token, rules) => {
        const allowlist = token.allowlist;
        for (const model of visibleModels(catalog, token, rules)) {
          if (allowlist !== null) expect(allowlist).toContain(model.id);
        }
      }),
    );
  });

  test("a model is callable exactly when a visible catalog entry has its id", () => {
    fc.assert(
      fc.property(
        fc.array(modelArb),
        tokenArb,
        policyArb,
        fc.constantFrom("a", "b", "f"),
        (catalog, token, rules, id) => {
          const listed = visibleModels(catalog, token, rules).some((model) => model.id === id);
          expect(checkAccess(catalog, token, rules, id).ok).toBe(listed);
        },
      ),
    );
  });
});
