/** JSON pointers (RFC 6901): built from the source node's pointer, so losses point into the user's input. */

function escapeToken(token: string | number): string {
  if (typeof token === "number") return String(token);
  return token.indexOf("~") === -1 && token.indexOf("/") === -1
    ? token
    : token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** `at("/messages/2", "content", 0)` → `"/messages/2/content/0"`. */
export function at(base: string, ...tokens: readonly (string | number)[]): string {
  let path = base;
  for (const token of tokens) path += `/${escapeToken(token)}`;
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
