// @ts-check
/**
 * The probe (probe.mjs) on a runtime with a command line and files (Node, Bun, Deno), over the corpus
 * file it is given; prints its answer as JSON. scripts/runtimes.ts runs it from the throwaway project
 * where the packed package is installed, so "gateway-protocols" is the package as users get it.
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import * as lib from "gateway-protocols";
import { probe } from "./probe.mjs";

const corpus = JSON.parse(readFileSync(process.argv[2] ?? "corpus.json", "utf8"));
process.stdout.write(`${JSON.stringify(await probe(lib, corpus))}\n`);
