/**
 * Whole-body translation: translateRequest and translateResponse (validated and `validate: false`), the
 * peers on the same bodies and directions, and schema parse alone, each as a ratio of the JSON round
 * trip (`JSON.parse(JSON.stringify(x))`) of the same bodies in the same run.
 */
import {
  arrow,
  atMost,
  type Check,
  type Context,
  fastest,
  type Job,
  job,
  missing,
  type Section,
  timeRow,
} from "./context";
import { type BodySet, type Protocol, protocols, requestSets, responseSets } from "./corpus";
import { type Cell, kilobytes, Notes, ratio, spread, table, unsupported } from "./report";
import { type Ours, schemaOf } from "./subjects";
import { canCollect, consume } from "./timing";

type Kind = "request" | "response";

function parseJob(context: Context, set: BodySet, kind: Kind): Job {
  const schema = schemaOf(context.ours, set.protocol, kind);
  if (schema === undefined) return missing(context, `${set.protocol}.${kind}`);
  return job(`${set.protocol}.${kind}.safeParse`, set.bodies, (body) => {
    const result = schema.safeParse(body);
    if (!result.success) throw new Error(`a ${set.protocol} ${kind} body does not parse`);
    return result;
  });
}

function oursJob(
  context: Context,
  kind: Kind,
  set: BodySet,
  to: Protocol,
  validate: boolean,
  cold = false,
  plain = false,
): Job {
  const ours = plain ? context.plain.ours : context.ours;
  if (ours === undefined)
    return { kind: "missing", why: `ours without code generation: ${context.plain.problem}` };
  const translate = kind === "request" ? ours.translateRequest : ours.translateResponse;
  const name = kind === "request" ? "translateRequest" : "translateResponse";
  if (translate === undefined) return missing(context, name);
  const label = `ours ${name} ${arrow(set.protocol, to)}${validate ? "" : " (validate: false)"}${plain ? " (no codegen)" : ""}`;
  return job(
    label,
    set.bodies,
    (body, at) => {
      const model = set.models[at];
      return translate(set.protocol, to, body, model === undefined ? { validate } : { validate, model });
    },
    cold,
  );
}

function peerJob(context: Context, kind: Kind, set: BodySet, to: Protocol, peerIndex: number): Job {
  const peer = context.peers[peerIndex];
  if (peer === undefined) return unsupported;
  if (peer.problem !== undefined) return { kind: "missing", why: `${peer.name} ${peer.problem}` };
  const translate = kind === "request" ? peer.request(set.protocol, to) : peer.response(set.protocol, to);
  if (translate === undefined) return unsupported;
  return job(`${peer.name} ${arrow(set.protocol, to)}`, set.bodies, (body) => translate(body));
}

const jsonJob = (set: BodySet, cold = false): Job =>
  job("JSON round trip", set.bodies, (body) => JSON.parse(JSON.stringify(body)), cold);

/**
 * Runs every translation of the corpus a few times before anything is timed, as a gateway's mixed
 * traffic would: the encoders and decoders see every shape they will meet, so the first rows are not
 * measured on code specialised to one protocol and deoptimised by the next.
 */
function warmUp(context: Context, kind: Kind, ours: Ours | undefined = context.ours): void {
  const translate = kind === "request" ? ours?.translateRequest : ours?.translateResponse;
  if (translate === undefined) return;
  for (let pass = 0; pass < 20; pass++)
    for (const from of protocols)
      for (const set of kind === "request" ? requestSets(from) : responseSets(from))
        for (const to of protocols)
          if (to !== from)
            for (const validate of [true, false])
              set.bodies.forEach((body, at) => {
                const model = set.models[at];
                try {
                  consume(
                    translate(from, to, body, model === undefined ? { validate } : { validate, model }),
                  );
                } catch {
                  // A body that throws is reported by its row.
                }
              });
}

type ParseRow = { label: string; protocol: Protocol; bytes: number; parse: Cell; json: Cell };

function suite(context: Context, kind: Kind): { markdown: string; checks: Check[]; parseRows: ParseRow[] } {
  const notes = new Notes();
  const rows: string[][] = [];
  const parseRows: ParseRow[] = [];
  const checks: Check[] = [];
  context.progress(`${kind} warm-up`);
  warmUp(context, kind);
  warmUp(context, kind, context.plain.ours);
  for (const from of protocols) {
    const sets = kind === "request" ? requestSets(from) : responseSets(from);
    for (const set of sets) {
      context.progress(`${kind} ${from} ${set.name}`);
      const targets = protocols.filter((to) => to !== from);
      // One row of jobs per set, timed with interleaved rounds: yardsticks, then per direction ours
      // (validated, unvalidated) and the peers.
      const perTarget = 3 + context.peers.length;
      const jobs: Job[] = [
        jsonJob(set),
        job("structuredClone", set.bodies, (body) => structuredClone(body)),
        parseJob(context, set, kind),
        ...targets.flatMap((to) => [
          oursJob(context, kind, set, to, true),
          oursJob(context, kind, set, to, true, false, true),
          oursJob(context, kind, set, to, false),
          ...context.peers.map((_, at) => peerJob(context, kind, set, to, at)),
        ]),
      ];
      const cells = timeRow(context, jobs);
      const [json = unsupported, clone = unsupported, parse = unsupported] = cells;
      parseRows.push({ label: `${kind}: ${set.name}`, protocol: from, bytes: set.bytes, parse, json });
      targets.forEach((to, index) => {
        const mine = cells.slice(3 + index * perTarget, 3 + (index + 1) * perTarget);
        const [validated = unsupported, plain = unsupported, unvalidated = unsupported, ...peers] = mine;
        const row = `${kind} ${set.name} ${arrow(from, to)}`;
        if (peers.some((cell) => cell.kind !== "unsupported")) {
          checks.push({
            target: `unvalidated ${kind} translation ≤ fastest peer`,
            row,
            met: atMost(unvalidated, fastest(peers, json), json),
          });
        }
        checks.push({
          target: `validated ${kind} translation ≤ 1.0× JSON round trip`,
          row,
          met: atMost(validated, 1, json),
        });
        rows.push([
          set.name,
          arrow(from, to),
          kilobytes(set.bytes),
          ratio(clone, json, notes),
          ratio(validated, json, notes),
          ratio(plain, json, notes),
          ratio(unvalidated, json, notes),
          ...peers.map((cell) => ratio(cell, json, notes)),
          spread([validated, plain, unvalidated, ...peers], json),
        ]);
      });
    }
  }
  const header = [
    "payload",
    "direction",
    "size",
    "structuredClone",
    "ours validated",
    "ours validated, no codegen",
    "ours unvalidated",
    ...context.peers.map((peer) => peer.name),
    "spread",
  ];
  const title = kind === "request" ? "### translateRequest" : "### translateResponse";
  const legend = `Time ÷ \`JSON.parse(JSON.stringify(x))\` of the same bodies in the same round (lower is faster; 1.00× = the JSON round trip), in steady state (warmed up, no forced GC): the median over ${context.timing.rounds} interleaved rounds. Spread = the widest (max − min) ÷ median of a ratio over the rounds, among the row's ours and peer columns. A fixtures row times all fixture bodies of that protocol together. "No codegen": validated translation where code generation from strings is forbidden (workerd, edge runtimes): zod's plain parsers and the library's closure checks instead of compiled ones. — = the library has no such function.`;
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

/** The directions the GC-pressure table times: a short and a long request through both other wires. */
const pressureRows: readonly { readonly from: Protocol; readonly set: string }[] = [
  { from: "chat", set: "short request" },
  { from: "chat", set: "20-turn conversation" },
  { from: "messages", set: "short request" },
];

/**
 * The same translations with a full collection forced before every batch (as the bench measured
 * before issue 17): what a request costs when the heap was just emptied and V8 may have dropped the
 * hidden classes and optimised code of the hub's objects — a gateway after a major GC, or cold.
 */
function pressureSection(context: Context): Section {
  const notes = new Notes();
  const rows: string[][] = [];
  for (const { from, set: name } of pressureRows) {
    const set = requestSets(from).find((each) => each.name === name);
    if (set === undefined) continue;
    for (const to of protocols) {
      if (to === from) continue;
      context.progress(`GC pressure ${from} ${name} →${to}`);
      const [json = unsupported, steady = unsupported, coldJson = unsupported, cold = unsupported] = timeRow(
        context,
        [
          jsonJob(set),
          oursJob(context, "request", set, to, true),
          jsonJob(set, true),
          oursJob(context, "request", set, to, true, true),
        ],
      );
      rows.push([
        name,
        arrow(from, to),
        ratio(steady, json, notes),
        ratio(cold, coldJson, notes),
        ratio(cold, json, notes),
        spread([steady, cold], json),
      ]);
    }
  }
  const markdown = [
    "### translateRequest under GC pressure",
    "",
    canCollect
      ? "Validated translateRequest with a full `gc()` forced before every batch (no warm-up across batches survives it), against the steady state above. Columns: steady ÷ JSON round trip; forced-GC ÷ the JSON round trip also with forced GC; forced-GC ÷ the steady JSON round trip."
      : "Not measured: node was not started with --expose-gc (`npm run bench` does).",
    "",
    ...(canCollect
      ? [
          table(
            [
              "payload",
              "direction",
              "steady",
              "GC per batch (vs JSON with GC)",
              "GC per batch (vs steady JSON)",
              "spread",
            ],
            rows,
          ),
        ]
      : []),
    ...(notes.size > 0 ? ["", notes.render()] : []),
  ].join("\n");
  return { markdown, checks: [] };
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
    sections.push(pressureSection(context));
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
