/**
 * JSON pointers (RFC 6901) as the laws read them. Written apart from the library's own so that a law
 * checking loss paths does not trust the code it checks.
 * @see https://www.rfc-editor.org/rfc/rfc6901
 */

/** The pointer of a path of keys and indexes: `["messages", 0, "a/b"]` → `/messages/0/a~1b`. */
export function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((token) => `/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** The unescaped tokens of a pointer; `undefined` when it is not a pointer. */
export function tokensOf(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Whether `pointer` designates a value in `root` (own keys only, array indexes in range). */
export function resolves(root: unknown, pointer: string): boolean {
  const tokens = tokensOf(pointer);
  if (tokens === undefined) return false;
  let node = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return false;
      node = node[Number(token)];
    } else if (typeof node === "object" && node !== null && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else return false;
  }
  return true;
}

/** The pointer of the parent of `pointer` ("" for a top-level member). */
export function parentOf(pointer: string): string {
  const tokens = tokensOf(pointer) ?? [];
  return pointerOf(tokens.slice(0, -1));
}

/** `root` without the member `pointer` designates (a copy; arrays lose the element). */
export function without(root: unknown, pointer: string): unknown {
  const tokens = tokensOf(pointer);
  if (tokens === undefined || tokens.length === 0) return undefined;
  const [head, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(root)) {
    const index = Number(head);
    return rest.length === 0
      ? root.filter((_, position) => position !== index)
      : root.map((item, position) => (position === index ? without(item, pointerOf(rest)) : item));
  }
  if (typeof root !== "object" || root === null || !Object.hasOwn(root, head)) return root;
  const { [head]: child, ...others } = root as Record<string, unknown>;
  return rest.length === 0 ? others : { ...others, [head]: without(child, pointerOf(rest)) };
}

/** The value `pointer` designates in `root`, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (!resolves(root, pointer)) return undefined;
  let node = root;
  for (const token of tokensOf(pointer) ?? []) node = (node as Record<string, unknown>)[token];
  return node;
}
