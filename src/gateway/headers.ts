/** Reading request headers the same way whether they come as a plain object (any letter case) or a `Headers`. */

/** A `Headers` instance, or a plain object such as Node's `IncomingHttpHeaders`. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

function isHeadersInstance(headers: object): headers is { get(name: string): string | null } {
  return typeof (headers as { get?: unknown }).get === "function";
}

function firstString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === "string") return item;
  }
  return undefined;
}

/**
 * A lookup by lower-case name that never throws: the first non-empty value (trimmed) or undefined.
 * An empty header counts as absent, as gateways treat it.
 */
export function headerReader(headers: unknown): (name: string) => string | undefined {
  if (headers === null || typeof headers !== "object") return () => undefined;
  if (isHeadersInstance(headers)) {
    return (name) => {
      try {
        const value = firstString(headers.get(name))?.trim();
        return value === "" ? undefined : value;
      } catch {
        return undefined;
      }
    };
  }
  let entries: [string, unknown][];
  try {
    entries = Object.entries(headers);
  } catch {
    entries = [];
  }
  return (name) => {
    for (const [key, raw] of entries) {
      if (key.toLowerCase() !== name) continue;
      const value = firstString(raw)?.trim();
      if (value !== undefined && value !== "") return value;
    }
    return undefined;
  };
}
