/** `list` with `entry` at its end; the list is made on the first entry (most responses lose nothing). */
export function append<T>(list: T[] | undefined, entry: T): T[] {
  if (list === undefined) return [entry];
  list.push(entry);
  return list;
}
