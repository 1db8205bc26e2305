// Every op's descriptor, once (the JS side's src/ops.def): what derives from the ops (the
// TensorFlow.js adapter, the demo, common/op-caller.mjs, the tests) reads this list. An op's
// public function is exported by the entry points (js/index.mjs, js/index.cjs).
import embeddingBagBackward from './embedding-bag-backward.mjs';
import booleanMask from './boolean-mask.mjs';
import compress from './compress.mjs';
import embeddingBag from './embedding-bag.mjs';
import gatherBlockQuantized from './gather-block-quantized.mjs';
import gatherND from './gather-nd.mjs';
import gather from './gather.mjs';
import indexReduce from './index-reduce.mjs';
import maskedScatter from './masked-scatter.mjs';
import nonZero from './non-zero.mjs';
import scatterND from './scatter-nd.mjs';
import scatter from './scatter.mjs';
import segmentReduce from './segment-reduce.mjs';
import take from './take.mjs';
import tensorScatter from './tensor-scatter.mjs';

export const OPS = [take, gatherND, gather, gatherBlockQuantized, scatter, scatterND, indexReduce, tensorScatter,
  embeddingBag, embeddingBagBackward, segmentReduce, nonZero, booleanMask, compress, maskedScatter];

/** The descriptor of the op named `name` in the API, or undefined. */
export const opNamed = (name) => OPS.find((d) => d.name === name);

/**
 * Checks the descriptors against the module's own list (js/abi.mjs: src/ops.def's masks): every
 * op has a descriptor that takes exactly its input tensors and its own attributes. Throws,
 * saying the builds differ, otherwise.
 */
export function checkOps(abi) {
  const same = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
  for (const [c, o] of Object.entries(abi.ops)) {
    const d = OPS.find((x) => x.c === c);
    if (!d || !same(Object.keys(d.tensors), o.inputs) || !same(d.attributes, o.own)) {
      throw new Error(`init: the wasm module's op ${c} (tensors ${o.inputs.join(', ')}; attributes ${o.own.join(', ')}) ` +
        `has ${d ? 'another descriptor' : 'no descriptor'} in js/ops/: its .wasm and the JS files come from different builds of wasm-gather`);
    }
  }
  for (const d of OPS) {
    if (!abi.ops[d.c]) throw new Error(`init: the wasm module has no op ${d.c}: its .wasm and the JS files come from different builds of wasm-gather`);
  }
}
