/**
 * The task every cell runs, the same whatever the protocol: turn 1 answers with reasoning state and
 * two parallel calls of a harmless tool the agent really has (read a note, look at a picture in the
 * scratch directory); turn 2 checks the results and the reasoning state came back, then answers with
 * final text. Which tool to call is chosen from the tool names in the request, nothing else.
 */
import { join } from "node:path";

export const NOTE_TOKEN = "NOTE-7F3A-42";
export const NOTE_TEXT = `The note says ${NOTE_TOKEN}.\n`;
export const DONE_TOKEN = "AGENT-CHECK-OK";
export const FINAL_TEXT = `Done: the note says ${NOTE_TOKEN} and the picture is 3x2 pixels. ${DONE_TOKEN}`;
export const PROMPT =
  "Read notes.txt and look at pixel.png in the current directory, then say what the note says.";
export const THINKING_TEXT = "The user wants the note and the picture: I will read both files at once.";

/**
 * The calls of turn 1 for the tools a request offers, or undefined when it offers none of the
 * scripted ones (an auxiliary request: a title, a summary, a next-speaker check …).
 * @param {{ name: string; schema: any }[]} tools
 * @param {string} workdir
 * @returns {{ name: string; args: Record<string, unknown> }[] | undefined}
 */
export function plannedCalls(tools, workdir) {
  const byName = new Map(tools.map((tool) => [tool.name, tool.schema]));
  const note = join(workdir, "notes.txt");
  const picture = join(workdir, "pixel.png");
  if (byName.has("Read")) {
    // Claude Code
    return [
      { name: "Read", args: { file_path: note } },
      { name: "Read", args: { file_path: picture } },
    ];
  }
  if (byName.has("read_file")) {
    // Gemini CLI: the parameter is `file_path` in 0.61 (`absolute_path` in older releases)
    const key =
      byName.get("read_file")?.properties?.absolute_path === undefined ? "file_path" : "absolute_path";
    return [
      { name: "read_file", args: { [key]: note } },
      { name: "read_file", args: { [key]: picture } },
    ];
  }
  if (byName.has("exec_command") && byName.has("view_image")) {
    // Codex
    return [
      { name: "exec_command", args: { cmd: "cat notes.txt", workdir } },
      { name: "view_image", args: { path: picture } },
    ];
  }
  return undefined;
}

/**
 * A value for a JSON schema an auxiliary request asks its answer in (structured output): the
 * smallest instance, an enum's "user" when it has one (Gemini CLI's next-speaker check: the user
 * speaks next, the turn is over), else its first value.
 * @param {any} schema
 * @returns {unknown}
 */
export function instanceOf(schema) {
  if (schema === null || typeof schema !== "object") return "";
  if (Array.isArray(schema.enum)) return schema.enum.includes("user") ? "user" : schema.enum[0];
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) return instanceOf(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (String(type ?? "object").toLowerCase()) {
    case "object": {
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const [key, value] of Object.entries(schema.properties ?? {})) out[key] = instanceOf(value);
      return out;
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return "ok";
  }
}
