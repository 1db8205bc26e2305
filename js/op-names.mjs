// What each op calls its tensors and axis in its messages: js/ops.mjs, and the callers that run
// an op through the call record themselves (wasm-gather/tfjs on the guest module). Not in
// js/ops.mjs, whose every export is public API (js/index.mjs re-exports it).
const TF_NAMES = { data: 'params', indices: 'indices', axis: 'axis' };

export const OP_NAMES = {
  take: TF_NAMES,
  gatherND: TF_NAMES,
  gather: { data: 'input', indices: 'index', axis: 'dim' },
};
