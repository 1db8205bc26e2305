// wasm-gather's ops run inside another wasm module's memory: the guest module
// (dist/wasm-gather-guest.wasm, CMakeLists.txt) is the same C as the library, built as an
// Emscripten side module that owns no memory. It is instantiated against a host's
// WebAssembly.Memory (TensorFlow.js's wasm backend, whose tensors live there), with its data,
// stack and call record in one block of the host's own malloc, so an op reads its data and indices
// and writes its output where they are: nothing is copied between the two memories.
// The call goes through the same call record as the library's (js/call.mjs: writeCall,
// writeTensors, readOutShape, failure), laid out as the guest's own constants table says.
// The guest runs on the calling thread (it has no pool) and allocates nothing itself: the scatters'
// workspace, when its plan asks for one, is a block of the host's malloc for the call.
import { failure, prepareCalls, readOutShape, readWorkspaceBytes, writeCall, writeTensors } from './call.mjs';
import { readAbi } from './abi.mjs';

/** Stack of the guest: the ops use under 2 KiB (tests/unit/guest.test.mjs measures it). */
export const GUEST_STACK_BYTES = 64 * 1024;

let compiled = null;

/** The guest module, compiled once (a Promise of a WebAssembly.Module). */
export function guestModule() {
  compiled ??= import('../dist/wasm-gather-guest.mjs').then(({ default: b64 }) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return WebAssembly.compile(bytes);
  });
  return compiled;
}

// The side module's needs (its dylink.0 section, WASM_DYLINK_MEM_INFO): data size and alignment,
// table size (https://github.com/WebAssembly/tool-conventions/blob/main/DynamicLinking.md).
function memInfo(module) {
  const [section] = WebAssembly.Module.customSections(module, 'dylink.0');
  if (!section) throw new Error('wasm-gather: the guest module has no dylink.0 section');
  const b = new Uint8Array(section);
  let p = 0;
  const leb = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = b[p++];
      v += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return v;
    }
  };
  while (p < b.length) {
    const type = leb(), size = leb(), end = p + size;
    if (type === 1) return { memorySize: leb(), memoryAlign: 2 ** leb(), tableSize: leb() };
    p = end;
  }
  throw new Error('wasm-gather: the guest module has no memory info');
}

/**
 * Instantiates the guest against host memory `memory` (a non-shared WebAssembly.Memory), with
 * its data, stack and call record in one block of the host's `malloc` (freed by `free` on
 * dispose()). Returns a call-ready state for plan()/run(), or throws (e.g. a LinkError for a
 * shared memory, which this build of the guest does not import).
 */
export function createGuest(module, { memory, malloc, free }) {
  const { memorySize, memoryAlign, tableSize } = memInfo(module);
  const align = Math.max(memoryAlign, 16);
  const dataBytes = Math.ceil(memorySize / align) * align;
  const CALL_BYTES = 4096; // room for the call record (checked against its size below)
  const bytes = align + dataBytes + GUEST_STACK_BYTES + CALL_BYTES;
  const block = malloc(bytes) >>> 0;
  if (!block) throw new RangeError(`wasm-gather: the host could not allocate ${bytes} bytes for the guest`);
  try {
    const dataBase = Math.ceil(block / align) * align;
    const stackTop = dataBase + dataBytes + GUEST_STACK_BYTES; // grows down, towards the data
    const env = {
      memory,
      __indirect_function_table: new WebAssembly.Table({ initial: tableSize, element: 'anyfunc' }),
      __stack_pointer: new WebAssembly.Global({ value: 'i32', mutable: true }, stackTop),
      __memory_base: new WebAssembly.Global({ value: 'i32', mutable: false }, dataBase),
      __table_base: new WebAssembly.Global({ value: 'i32', mutable: false }, 0),
    };
    const x = new WebAssembly.Instance(module, { env }).exports; // its start function relocates its data
    const m = { _wg_call_shape: x.wg_call_shape, _wg_call_run: x.wg_call_run, _wg_abi_count: x.wg_abi_count,
      _wg_abi_name: x.wg_abi_name, _wg_abi_value: x.wg_abi_value };
    const abi = readAbi(m, memory);
    if (abi.call.size > CALL_BYTES) throw new Error(`wasm-gather: the guest's call record (${abi.call.size} bytes) does not fit`);
    const s = { m, memory, abi, call: stackTop, pool: 0, stack: { low: dataBase + dataBytes, top: stackTop },
      malloc, free, disposed: false, dispose() { if (!s.disposed) { s.disposed = true; free(block); } } };
    prepareCalls(s);
    return s;
  } catch (e) {
    free(block);
    throw e;
  }
}

/**
 * Plans a call in the guest. call: { desc (the op's descriptor, js/ops/), tensors: { role:
 * descriptor } at their host addresses (js/tensor.mjs: data { shape, dtype, ptr }, indices
 * { shape, kind, dtype, ptr, Type, length }, read for an error's message), attrs (the values
 * of desc.attributes, in order), mode, negative }. Returns the output shape, or throws the
 * library's error for the call.
 */
export function plan(g, call) {
  const w = writeCall(g, call.desc, call.tensors, call.attrs, call.mode, call.negative);
  const status = g.m._wg_call_shape(g.call);
  if (status !== g.codes.ok) throw failure(g, status, call.desc, call.tensors, call.negative);
  call.workspaceBytes = readWorkspaceBytes(g, w);
  return readOutShape(g, w); // the guest allocates nothing: w still views the host's memory
}

/**
 * Runs the call last planned (plan's call) into host address out (the output's shape and type
 * as planned); throws the library's error (an index out of range: the first one). The workspace
 * its plan asks for (the scatters'), if any, is a block of the host's malloc for the call: the host's
 * memory may grow then, before the run (its tensors' addresses stay).
 */
export function run(g, call, out) {
  const ptrs = { out };
  for (const role in call.tensors) ptrs[role] = call.tensors[role].ptr;
  const block = call.workspaceBytes ? g.malloc(call.workspaceBytes + WORKSPACE_ALIGN) >>> 0 : 0;
  if (call.workspaceBytes && !block) throw new RangeError(`${call.desc.name}: the host could not allocate the ${call.workspaceBytes} bytes of workspace the call needs`);
  try {
    if (block) ptrs.workspace = Math.ceil(block / WORKSPACE_ALIGN) * WORKSPACE_ALIGN;
    writeTensors(g, ptrs);
    const status = g.m._wg_call_run(0, g.call);
    if (status !== g.codes.ok) throw failure(g, status, call.desc, call.tensors, call.negative);
  } finally {
    if (block) g.free(block);
  }
}

// The most alignment a plan asks of its workspace (src/op.h: workspace_align, at most 16).
const WORKSPACE_ALIGN = 16;
