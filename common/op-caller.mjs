// One call of an op by name, as the benchmark workloads and the demo describe it: { op, opts },
// where an argument the op takes by position that is not one of its two tensors (gather's dim)
// is in opts under its parameter's name. The positions come from the op's descriptor
// (js/ops/). `api` is any object holding the ops as plain functions by name: the library's
// module, or the reference's refOps (common/reference.mjs).
import { opNamed } from '../js/ops/index.mjs';

/**
 * (data, indices) => the op's result. The arguments and the options object are built once, here,
 * so that a timed loop measures the op and not the harness; `extra` is merged into the options
 * (e.g. { out }).
 */
export function caller(api, { op, opts = {} }, extra = {}) {
  const fn = api[op];
  const desc = opNamed(op);
  if (typeof fn !== 'function' || !desc) throw new TypeError(`unknown op ${op}`);
  const { names } = desc;
  const positional = desc.params.slice(0, -1); // opts is last
  const options = { ...opts, ...extra };
  const args = positional.map((p) => {
    const value = options[p];
    delete options[p];
    return value;
  });
  args.push(options);
  const at = { data: positional.indexOf(names.data), indices: positional.indexOf(names.indices) };
  return (data, indices) => {
    args[at.data] = data;
    args[at.indices] = indices;
    return fn(...args);
  };
}
