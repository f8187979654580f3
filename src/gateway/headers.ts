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

/**
 * Every header as `[lower-case name, value]`, in order, never throwing: a repeated header (an array
 * value) is one entry, its values joined by `, `; empty values are left out.
 */
export function headerEntries(headers: unknown): [string, string][] {
  if (headers === null || typeof headers !== "object") return [];
  const out: [string, string][] = [];
  const add = (name: string, raw: unknown): void => {
    const value = Array.isArray(raw)
      ? raw.filter((item): item is string => typeof item === "string").join(", ")
      : typeof raw === "string"
        ? raw
        : typeof raw === "number"
          ? String(raw)
          : undefined;
    if (value !== undefined && value.trim() !== "") out.push([name.toLowerCase(), value.trim()]);
  };
  try {
    if (isHeadersInstance(headers)) {
      const each = (headers as { forEach?: unknown }).forEach;
      if (typeof each === "function")
        (each as (callback: (value: string, name: string) => void) => void).call(headers, (value, name) =>
          add(name, value),
        );
      return out;
    }
    for (const [name, raw] of Object.entries(headers)) add(name, raw);
  } catch {
    return out;
  }
  return out;
}
