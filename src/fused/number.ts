/** A finite JSON number: what a fused path takes for a sampling field (anything else goes to the hub). */
export const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
