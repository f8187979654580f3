// @ts-check
/**
 * The probe (probe.mjs) as a Workers module for workerd: POST the corpus, get the answer as JSON.
 * scripts/runtimes.ts bundles it with the packed package (workerd loads one module here).
 */
import * as lib from "gateway-protocols";
import { probe } from "./probe.mjs";

export default {
  /** @param {Request} request */
  async fetch(request) {
    return Response.json(await probe(lib, await request.json()));
  },
};
