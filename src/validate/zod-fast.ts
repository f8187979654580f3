import { z } from "zod/v4";

/**
 * zod 4.6's compiled validators, where they exist and the runtime allows `new Function` (edge runtimes
 * and `z.config({ jitless: true })` do not): every fast path goes through here so that an older zod 4
 * or a locked-down runtime falls back to the plain schema instead of failing.
 */
const zodFast = z as unknown as {
  compile?: <T extends z.ZodType>(schema: T) => T;
  validate?: (schema: z.ZodType, value: unknown) => boolean;
};

export function canCompile(): boolean {
  return typeof zodFast.compile === "function" && z.util.allowsEval.value;
}

/** The compiled schema where possible, else the schema itself. */
export function compiled<T extends z.ZodType>(schema: T): T {
  return canCompile() && zodFast.compile !== undefined ? zodFast.compile(schema) : schema;
}

/** Whether `schema` accepts `value`, without building the parsed output where zod can say so. */
export function validates(schema: z.ZodType, value: unknown): boolean {
  return zodFast.validate !== undefined ? zodFast.validate(schema, value) : schema.safeParse(value).success;
}
