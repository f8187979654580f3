/**
 * Whole-body translation: translateRequest and translateResponse (validated and `validate: false`), the
 * peers on the same bodies and directions, and schema parse alone, each as a ratio of the JSON round
 * trip (`JSON.parse(JSON.stringify(x))`) of the same bodies in the same run.
 */
import { arrow, atMost, type Check, type Context, fastest, missing, type Section, timeAll } from "./context";
import { type BodySet, type Protocol, protocols, requestSets, responseSets } from "./corpus";
import { type Cell, kilobytes, Notes, ratio, table, unsupported } from "./report";
import { schemaOf } from "./subjects";

type Kind = "request" | "response";

type Yardsticks = { json: Cell; clone: Cell; parse: Cell };

function yardsticks(context: Context, set: BodySet, kind: Kind): Yardsticks {
  const json = timeAll(context, "JSON round trip", set.bodies, (body) => JSON.parse(JSON.stringify(body)));
  const clone = timeAll(context, "structuredClone", set.bodies, (body) => structuredClone(body));
  const schema = schemaOf(context.ours, set.protocol, kind);
  const parse =
    schema === undefined
      ? missing(context, `${set.protocol}.${kind}`)
      : timeAll(context, `${set.protocol}.${kind}.safeParse`, set.bodies, (body) => {
          const result = schema.safeParse(body);
          if (!result.success) throw new Error(`a ${set.protocol} ${kind} body does not parse`);
          return result;
        });
  return { json, clone, parse };
}

function oursCell(context: Context, kind: Kind, set: BodySet, to: Protocol, validate: boolean): Cell {
  const translate = kind === "request" ? context.ours.translateRequest : context.ours.translateResponse;
  const name = kind === "request" ? "translateRequest" : "translateResponse";
  if (translate === undefined) return missing(context, name);
  const label = `ours ${name} ${arrow(set.protocol, to)}${validate ? "" : " (validate: false)"}`;
  return timeAll(context, label, set.bodies, (body, at) => {
    const model = set.models[at];
    return translate(set.protocol, to, body, model === undefined ? { validate } : { validate, model });
  });
}

function peerCell(context: Context, kind: Kind, set: BodySet, to: Protocol, peerIndex: number): Cell {
  const peer = context.peers[peerIndex];
  if (peer === undefined) return unsupported;
  if (peer.problem !== undefined) return { kind: "missing", why: `${peer.name} ${peer.problem}` };
  const translate = kind === "request" ? peer.request(set.protocol, to) : peer.response(set.protocol, to);
  if (translate === undefined) return unsupported;
  return timeAll(context, `${peer.name} ${arrow(set.protocol, to)}`, set.bodies, (body) => translate(body));
}

type ParseRow = { label: string; protocol: Protocol; bytes: number; parse: Cell; json: Cell };

function suite(context: Context, kind: Kind): { markdown: string; checks: Check[]; parseRows: ParseRow[] } {
  const notes = new Notes();
  const rows: string[][] = [];
  const parseRows: ParseRow[] = [];
  const checks: Check[] = [];
  for (const from of protocols) {
    const sets = kind === "request" ? requestSets(from) : responseSets(from);
    for (const set of sets) {
      context.progress(`${kind} ${from} ${set.name}`);
      const base = yardsticks(context, set, kind);
      parseRows.push({
        label: `${kind}: ${set.name}`,
        protocol: from,
        bytes: set.bytes,
        parse: base.parse,
        json: base.json,
      });
      for (const to of protocols) {
        if (to === from) continue;
        const validated = oursCell(context, kind, set, to, true);
        const unvalidated = oursCell(context, kind, set, to, false);
        const peers = context.peers.map((_, at) => peerCell(context, kind, set, to, at));
        const row = `${kind} ${set.name} ${arrow(from, to)}`;
        if (peers.some((cell) => cell.kind !== "unsupported")) {
          checks.push({
            target: `unvalidated ${kind} translation ≤ fastest peer`,
            row,
            met: atMost(unvalidated, fastest(peers)),
          });
        }
        checks.push({
          target: `validated ${kind} translation ≤ 1.0× JSON round trip`,
          row,
          met: base.json.kind === "time" ? atMost(validated, base.json.ns) : undefined,
        });
        rows.push([
          set.name,
          arrow(from, to),
          kilobytes(set.bytes),
          ratio(base.clone, base.json, notes),
          ratio(validated, base.json, notes),
          ratio(unvalidated, base.json, notes),
          ...peers.map((cell) => ratio(cell, base.json, notes)),
        ]);
      }
    }
  }
  const header = [
    "payload",
    "direction",
    "size",
    "structuredClone",
    "ours validated",
    "ours unvalidated",
    ...context.peers.map((peer) => peer.name),
  ];
  const title = kind === "request" ? "### translateRequest" : "### translateResponse";
  const legend =
    "Time ÷ `JSON.parse(JSON.stringify(x))` of the same bodies in the same run (lower is faster; 1.00× = the JSON round trip). A fixtures row times all fixture bodies of that protocol together. — = the library has no such function.";
  const markdown = [
    title,
    "",
    legend,
    "",
    table(header, rows),
    ...(notes.size > 0 ? ["", notes.render()] : []),
  ].join("\n");
  return { markdown, checks, parseRows };
}

/** The translateRequest, translateResponse and validation-alone tables. */
export function translateSections(
  context: Context,
  which: { requests: boolean; responses: boolean },
): Section[] {
  const sections: Section[] = [];
  const parseRows: ParseRow[] = [];
  if (which.requests) {
    const requests = suite(context, "request");
    sections.push({ markdown: requests.markdown, checks: requests.checks });
    parseRows.push(...requests.parseRows);
  }
  if (which.responses) {
    const responses = suite(context, "response");
    sections.push({ markdown: responses.markdown, checks: responses.checks });
    parseRows.push(...responses.parseRows);
  }
  if (parseRows.length > 0) {
    const notes = new Notes();
    const rows = parseRows.map((row) => [
      row.label,
      row.protocol,
      kilobytes(row.bytes),
      ratio(row.parse, row.json, notes),
    ]);
    sections.push({
      markdown: [
        "### Schema parse alone (`safeParse` of the input)",
        "",
        "Time ÷ JSON round trip of the same bodies. Validation must be O(nodes) and never copy strings.",
        "",
        table(["payload", "protocol", "size", "parse"], rows),
        ...(notes.size > 0 ? ["", notes.render()] : []),
      ].join("\n"),
      checks: [],
    });
  }
  return sections;
}
