/**
 * The first check of every public function that takes protocol ids: an id
 * outside the list is the caller's mistake, told as a TypeError that names it and the valid ones —
 * never a message about the body that happens to fail later.
 */
export function checkProtocol(value: unknown, known: readonly string[], role: string): void {
  if (typeof value === "string" && known.includes(value)) return;
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  throw new TypeError(`Unknown protocol ${shown} (${role}): use one of ${known.join(", ")}.`);
}
