// One call of an op by name, as the benchmark workloads and the demo describe it: { op, opts },
// with gather's dim in opts.dim (gather takes it as an argument, not as an option). `api` is any
// object holding the three ops as plain functions by name: the library's module, or the
// reference's refOps (common/reference.mjs).

/**
 * (data, indices) => the op's result. The options object is built once, here, so that a timed
 * loop measures the op and not the harness; `extra` is merged into it (e.g. { out }).
 */
export function caller(api, { op, opts = {} }, extra = {}) {
  const fn = api[op];
  if (typeof fn !== 'function') throw new TypeError(`unknown op ${op}`);
  const { dim, ...rest } = opts;
  const options = { ...rest, ...extra };
  if (op === 'gather') return (data, indices) => fn(data, dim, indices, options);
  return (data, indices) => fn(data, indices, options);
}
