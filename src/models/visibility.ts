/**
 * Which models a token may list and call: the four filters (allowlist, group and channel, listing status, price), in order,
 * and the gateway's answers for a model that fails them.
 */
import { modelNotSpecified, noAccessToAnyModels, noAccessToModel, noValidUpstream } from "../errors";
import type { ModelEntry, TokenScope, VisibilityPolicy } from "./schema";

/** The filter that hides a model, named in the order they are checked. */
export type HiddenBy = "allowlist" | "group" | "channel" | "listing" | "price";

/**
 * The first filter that hides `entry` from `token`, or undefined when it is visible:
 * (a) the token's allowlist when enabled; (b) the user group ∪ the token's group, and a usable
 * channel; (c) listing status under strict metadata mode; (d) a price, unless self-use mode or the
 * account accepts unpriced models.
 */
export function hiddenBy(
  entry: ModelEntry,
  token: TokenScope,
  policy: VisibilityPolicy,
): HiddenBy | undefined {
  if (token.allowlist !== null && !token.allowlist.includes(entry.id)) return "allowlist";
  const inGroup =
    entry.groups.includes(policy.userGroup) ||
    (token.group !== undefined && entry.groups.includes(token.group));
  if (!inGroup) return "group";
  if (!entry.hasChannel) return "channel";
  if (policy.strictMetadata && !entry.listed) return "listing";
  if (!entry.priced && !policy.selfUse && !policy.acceptUnpriced) return "price";
  return undefined;
}

/** The catalog entries `token` may list, in catalog order (a new array; entries are not copied). */
export function visibleModels(
  catalog: readonly ModelEntry[],
  token: TokenScope,
  policy: VisibilityPolicy,
): ModelEntry[] {
  return catalog.filter((entry) => hiddenBy(entry, token, policy) === undefined);
}

/** The answer of `checkAccess`: `{ ok: true }`, or the status and message to refuse the call with. */
export type AccessResult = { ok: true } | { ok: false; status: 400 | 403 | 503; message: string };

/**
 * May `token` call `model`? The gateway's answers: 400 `Model name not specified` for an empty
 * model; 403 `This token has no access to any models` (allowlist enabled but empty) or `This token
 * has no access to model {model}` (outside the allowlist); 503 `No valid upstream service` when no
 * visible catalog entry has that exact id (wrong group, no channel, unlisted in strict mode or
 * unpriced: the model then acts as nonexistent).
 */
export function checkAccess(
  catalog: readonly ModelEntry[],
  token: TokenScope,
  policy: VisibilityPolicy,
  model: string,
): AccessResult {
  if (model === "") return { ok: false, status: 400, message: modelNotSpecified().message };
  if (token.allowlist !== null) {
    if (token.allowlist.length === 0)
      return { ok: false, status: 403, message: noAccessToAnyModels().message };
    if (!token.allowlist.includes(model))
      return { ok: false, status: 403, message: noAccessToModel(model).message };
  }
  const visible = catalog.some((entry) => entry.id === model && hiddenBy(entry, token, policy) === undefined);
  return visible ? { ok: true } : { ok: false, status: 503, message: noValidUpstream().message };
}
