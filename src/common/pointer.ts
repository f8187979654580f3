/** JSON pointers (RFC 6901): built from the source node's pointer, so losses point into the user's input. */

/** A token as it appears in a pointer: `~` → `~0`, `/` → `~1` (only scanned for strings, and rarely needed). */
function escapeToken(token: string | number): string {
  if (typeof token === "number") return `${token}`;
  return token.indexOf("~") === -1 && token.indexOf("/") === -1
    ? token
    : token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * `at("/messages/2", "content", 0)` → `"/messages/2/content/0"`, each token escaped. A token that is
 * a literal field name (no `~`, no `/`) or an index needs no escaping: the decoders and encoders write
 * those pointers as template literals (`${source}/content/${index}`), a third of the cost of this
 * call; `at` is for tokens from the input (unknown keys) and for code off the hot paths.
 */
export function at(base: string, ...tokens: readonly (string | number)[]): string {
  const count = tokens.length;
  if (count === 1) return `${base}/${escapeToken(tokens[0] as string | number)}`;
  if (count === 2)
    return `${base}/${escapeToken(tokens[0] as string | number)}/${escapeToken(tokens[1] as string | number)}`;
  let path = base;
  for (let index = 0; index < count; index++) path += `/${escapeToken(tokens[index] as string | number)}`;
  return path;
}

/** Splits a pointer into its unescaped tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value a pointer designates in `root`, or `undefined` when it designates nothing. */
export function resolvePointer(root: unknown, pointer: string): { found: boolean; value: unknown } {
  let node: unknown = root;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) {
      const index = Number(token);
      if (!Number.isInteger(index) || index < 0 || index >= node.length)
        return { found: false, value: undefined };
      node = node[index];
    } else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: node };
}
