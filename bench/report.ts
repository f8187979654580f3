/** Cells, ratios and Markdown tables with numbered notes for every missing or failed measurement. */
import { median } from "./timing";

/** A measured time, a function that does not exist (peer or ours not written yet), or a call that threw. */
export type Cell =
  | {
      readonly kind: "time";
      /** Median nanoseconds per call over the rounds. */
      readonly ns: number;
      /** Nanoseconds per call in each round (interleaved with the other cells of its row). */
      readonly runs: readonly number[];
    }
  | { readonly kind: "unsupported" }
  | { readonly kind: "missing"; readonly why: string }
  | { readonly kind: "error"; readonly why: string };

/** A Cell with no time: why a measurement is absent. */
export type Absent = Exclude<Cell, { kind: "time" }>;

export const unsupported: Absent = { kind: "unsupported" };

/** Collects the notes a table refers to, so each distinct reason is printed once. */
export class Notes {
  readonly #reasons: string[] = [];

  mark(why: string): string {
    let at = this.#reasons.indexOf(why);
    if (at < 0) {
      this.#reasons.push(why);
      at = this.#reasons.length - 1;
    }
    return `[${at + 1}]`;
  }

  render(): string {
    return this.#reasons.map((why, at) => `[${at + 1}] ${why}`).join("  \n");
  }

  get size(): number {
    return this.#reasons.length;
  }
}

export function formatRatio(value: number): string {
  if (value >= 100) return `${value.toFixed(0)}×`;
  if (value >= 10) return `${value.toFixed(1)}×`;
  if (value >= 0.1) return `${value.toFixed(2)}×`;
  return `${value.toFixed(3)}×`;
}

/**
 * The ratio of `cell` to `base` in each round (both taken in the same round), or one ratio of the
 * medians when the rounds do not line up.
 */
export function roundRatios(cell: Cell, base: Cell): number[] {
  if (cell.kind !== "time" || base.kind !== "time") return [];
  if (cell.runs.length !== base.runs.length || cell.runs.length === 0) return [cell.ns / base.ns];
  return cell.runs.map((ns, at) => ns / (base.runs[at] ?? Number.NaN));
}

/** `cell` as a ratio of `base` (the yardstick time of the same payload in the same run), the median over rounds. */
export function ratio(cell: Cell, base: Cell, notes: Notes): string {
  if (cell.kind === "unsupported") return "—";
  if (cell.kind !== "time") return `n/a ${notes.mark(cell.why)}`;
  if (base.kind !== "time")
    return `n/a ${notes.mark(base.kind === "unsupported" ? "no yardstick" : base.why)}`;
  return formatRatio(median(roundRatios(cell, base)));
}

/**
 * The run-to-run spread of a row: the largest (max − min) ÷ median of a cell's per-round ratios to
 * `base`, over the row's cells, as a percentage ("" when nothing was measured in several rounds).
 */
export function spread(cells: readonly Cell[], base: Cell): string {
  let widest: number | undefined;
  for (const cell of cells) {
    const ratios = roundRatios(cell, base);
    if (ratios.length < 2) continue;
    const middle = median(ratios);
    const width = (Math.max(...ratios) - Math.min(...ratios)) / middle;
    if (Number.isFinite(width) && (widest === undefined || width > widest)) widest = width;
  }
  return widest === undefined ? "" : `${(widest * 100).toFixed(0)}%`;
}

/** A throughput (`amount` per second) with its unit, or the note why there is none. */
export function rate(cell: Cell, amount: number, unit: "events/s" | "MB/s", notes: Notes): string {
  if (cell.kind === "unsupported") return "—";
  if (cell.kind !== "time") return `n/a ${notes.mark(cell.why)}`;
  const perSecond = (amount * 1e9) / cell.ns;
  if (unit === "MB/s") return `${(perSecond / 1e6).toFixed(perSecond >= 1e8 ? 0 : 1)} MB/s`;
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M/s`;
  return `${(perSecond / 1e3).toFixed(0)} k/s`;
}

export function kilobytes(bytes: number): string {
  return bytes >= 10_240 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * A Markdown table. `align` has one letter per column, `l` or `r`; by default the first two columns
 * (names) are left-aligned and the rest (numbers) right-aligned.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: string,
): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
  const rule = header.map((_, at) => ((align?.[at] ?? (at < 2 ? "l" : "r")) === "l" ? "---" : "---:"));
  return [line(header), line(rule), ...rows.map(line)].join("\n");
}
