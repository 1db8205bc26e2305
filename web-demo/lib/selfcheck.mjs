// Runs every seed example through the library on load and compares with the documented
// output (shape-only examples: with common/reference.mjs), every gatherBlockQuantized
// example bit for bit with common/reference-quantized.mjs, every scatter example with the
// output worked out by hand in lib/scatter-examples.mjs, and every embeddingBag and segmentReduce
// example with the output worked out by hand in lib/bag-examples.mjs and with
// common/reference-bag.mjs, and embeddingBag's backward (the gradient of each output row of every
// embeddingBag example, as the playground draws it) with common/reference-bag-backward.mjs bit
// for bit and, where lib/bag-examples.mjs works one out by hand, with that. The result is the badge
// in the header; it is also what tests/browsers/demo.test.mjs reads.
import { fmtNum } from './dom.mjs';

const isTensor = (x) => x && typeof x === 'object' && Array.isArray(x.shape) && x.data !== undefined;
const num = (v) => (typeof v === 'bigint' ? Number(v) : v);
const same = (a, b) => num(a) === num(b) || (Number.isNaN(num(a)) && Number.isNaN(num(b)));

/** null when out matches expected ({ data?, shape }), else what differs. */
export function compare(out, expected) {
  if (!isTensor(out)) return `result is not a tensor: ${String(out)}`;
  const shape = Array.from(out.shape);
  if (shape.length !== expected.shape.length || shape.some((d, i) => d !== expected.shape[i])) {
    return `shape [${shape}] ≠ expected [${expected.shape}]`;
  }
  if (!expected.data) return null;
  if (out.data.length !== expected.data.length) return `${out.data.length} values, expected ${expected.data.length}`;
  for (let i = 0; i < out.data.length; i++) {
    if (!same(out.data[i], expected.data[i])) return `value ${i}: got ${fmtNum(out.data[i])}, expected ${fmtNum(expected.data[i])}`;
  }
  return null;
}

/** [{ title, source, op, pass, problem }] for every seed example. */
export function selfCheck(api, ref, examples) {
  return examples.map((ex) => {
    let problem = null;
    try {
      const out = api[ex.op](...ex.args, ex.opts);
      problem = compare(out, ex.expected);
      if (!problem && ex.checkAgainstReference) {
        const refOp = ref.refOps[ex.op] ?? (ex.op === 'gatherBlockQuantized' ? ref.refGatherBlockQuantized : undefined);
        const r = refOp(...ex.args, ex.opts);
        const p = compare(out, { data: r.data, shape: Array.from(r.shape) });
        if (p) problem = `differs from common/reference.mjs: ${p}`;
      }
    } catch (err) {
      problem = `threw ${err?.name}: ${err?.message}`;
    }
    return { title: ex.title, source: ex.source, op: ex.op, pass: !problem, problem };
  });
}

/**
 * [{ title, source, op, pass, problem }] for every gatherBlockQuantized preset that is not a seed
 * (lib/examples.mjs): the library's output against refGatherBlockQuantized's, value for value
 * (float16 / bfloat16 as their bits).
 */
export function quantizedCheck(api, refQuantized, presets, callQuantized, quantOpts) {
  return presets.filter((p) => p.op === 'gatherBlockQuantized' && !p.seed).map((p) => {
    let problem = null;
    try {
      const call = p.load();
      const out = callQuantized(api, call);
      const r = refQuantized.refGatherBlockQuantized(call.data, call.indices, call.scales, quantOpts(call.attrs, call.zeroPoints));
      if (out.data.constructor !== r.data.constructor) problem = `a ${out.data.constructor.name}, the reference a ${r.data.constructor.name}`;
      const p2 = problem ?? compare(out, { data: r.data, shape: Array.from(r.shape) });
      if (p2) problem = `differs from common/reference-quantized.mjs: ${p2}`;
    } catch (err) {
      problem = `threw ${err?.name}: ${err?.message}`;
    }
    return { title: p.title, source: p.source, op: p.op, pass: !problem, problem };
  });
}

/**
 * [{ title, source, op, pass, problem }] for every scatter preset (lib/examples.mjs): the
 * library's output, of the data's array type, against the preset's expected output.
 */
export function scatterCheck(api, presets, isScatter, callScatter) {
  return presets.filter((p) => isScatter(p.op)).map((p) => {
    let problem = null;
    try {
      const call = { op: p.op, ...p.load() };
      const out = callScatter(api, call);
      const Type = call.data.data.constructor;
      problem = out.data instanceof Type ? compare(out, p.expected) : `a ${out.data?.constructor.name}, the data a ${Type.name}`;
      if (problem) problem = `differs from the worked output: ${problem}`;
    } catch (err) {
      problem = `threw ${err?.name}: ${err?.message}`;
    }
    return { title: p.title, source: p.source, op: p.op, pass: !problem, problem };
  });
}

/**
 * [{ title, source, op, pass, problem }] for every embeddingBag and segmentReduce preset
 * (lib/bag-examples.mjs): the library's output, of the data's array type, against the output
 * worked out by hand (and maxIndices against the rows worked out by hand), and both against
 * common/reference-bag.mjs's, value for value.
 */
export function bagCheck(api, refBag, presets, isBag, callBag) {
  return presets.filter((p) => isBag(p.op)).map((p) => {
    let problem = null;
    try {
      const call = { op: p.op, ...p.load() };
      const out = callBag(api, call);
      const r = callBag(refBag, call);
      const Type = call.data.data.constructor;
      problem = !(out.data instanceof Type) ? `a ${out.data?.constructor.name}, the data a ${Type.name}`
        : compare(out, p.expected) ?? (p.expectedMaxIndices && compare(out.maxIndices, p.expectedMaxIndices));
      if (problem) problem = `differs from the worked output: ${problem}`;
      const vsRef = problem ? null : compare(out, { data: r.data, shape: r.shape })
        ?? (r.maxIndices && compare(out.maxIndices, { data: r.maxIndices.data, shape: r.maxIndices.shape }));
      if (vsRef) problem = `differs from common/reference-bag.mjs: ${vsRef}`;
    } catch (err) {
      problem = `threw ${err?.name}: ${err?.message}`;
    }
    return { title: p.title, source: p.source, op: p.op, pass: !problem, problem };
  });
}

/**
 * [{ title, source, op, pass, problem }] for every embeddingBag preset: the gradient of each of
 * its output rows for the table (lib/bag-grad.mjs: the library's backward with ones in that row)
 * against common/reference-bag-backward.mjs's, bit for bit, and the row worked out by hand
 * (expectedGrad) against that.
 */
export function bagGradCheck(api, refBackward, presets, callBag, bagGradient) {
  return presets.filter((p) => p.op === 'embeddingBag').map((p) => {
    let problem = null;
    try {
      const call = { op: p.op, ...p.load() };
      const out = callBag(api, call);
      for (let row = 0; row < out.shape[0] && !problem; row++) {
        const g = bagGradient(api, api, call, out, row).result;
        const r = bagGradient(refBackward, api, call, out, row).result;
        const i = g.data.findIndex((v, k) => !Object.is(v, r.data[k])); // bit for bit: -0 is not 0
        const p1 = compare(g, { shape: Array.from(r.shape) }) ?? (g.data.constructor !== r.data.constructor
          ? `a ${g.data.constructor.name}, the reference a ${r.data.constructor.name}`
          : i >= 0 ? `value ${i}: got ${fmtNum(g.data[i])}, expected ${fmtNum(r.data[i])}` : null);
        if (p1) problem = `output row ${row}'s gradient differs from common/reference-bag-backward.mjs: ${p1}`;
        else if (p.expectedGrad?.row === row) {
          const p2 = compare(g, p.expectedGrad);
          if (p2) problem = `output row ${row}'s gradient differs from the one worked out by hand: ${p2}`;
        }
      }
    } catch (err) {
      problem = `threw ${err?.name}: ${err?.message}`;
    }
    return { title: `${p.title} (backward)`, source: p.source, op: p.op, pass: !problem, problem };
  });
}
