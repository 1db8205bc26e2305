// The contract between C and JS (js/abi.mjs): JS reads every number it shares with C from the
// module. These tests check that the module's table holds every enumerator of the public header
// with its value, and every field of the call record (src/call.def); that every status has
// words in js/errors.mjs or its op's descriptor; that every op of src/ops.def has a number and a
// descriptor (js/ops/) that takes what C says it takes; that a module lacking a name JS needs
// fails init; and, with a build in which every shared number and the record's layout are
// changed (tests/abi/renumbered-build.mjs), that the op suites (tests/ops/) and
// tests/unit/api-errors.test.mjs pass unchanged: no number of C's is written in JS.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { abiFromTable } from '../../js/abi.mjs';
import { STATUS_NAMES } from '../../js/errors.mjs';
import { dispose, init } from '../../js/index.mjs';
import { OPS, checkOps } from '../../js/ops/index.mjs';
import { getState } from '../../js/state.mjs';
import { renumberedBuild } from './renumbered-build.mjs';

const source = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

// The enumerators of src/wasm_gather.h ("WG_X = n,") and its #define'd integer constants.
function headerConstants() {
  const text = source('src/wasm_gather.h');
  const found = new Map();
  for (const [, name, value] of text.matchAll(/^\s*(WG_[A-Z0-9_]+)\s*=\s*(\d+)\s*,/gm)) found.set(name, Number(value));
  for (const [, name, value] of text.matchAll(/^#define (WG_[A-Z0-9_]+) \(?(\d+)/gm)) found.set(name, Number(value));
  return found;
}
const opsInTable = () => [...source('src/ops.def').matchAll(/^WG_OP\((\w+),/gm)].map((m) => m[1]);
// The tensor slots and attributes of src/call.def, in order.
const callList = (kind) => [...source('src/call.def').matchAll(new RegExp(`^WG_${kind}\\((\\w+),`, 'gm'))].map((m) => m[1]);

let abi;
before(async () => {
  await init({ variant: 'simd' });
  abi = getState().abi;
});
after(() => dispose());

test('the module defines every constant of src/wasm_gather.h, with the same value', () => {
  const header = headerConstants();
  assert.ok(header.size > 30, `read ${header.size} constants from the header`);
  for (const [name, value] of header) {
    if (name === 'WG_PARALLEL_MIN_BYTES') continue; // (32 * 1024): read as 32 here
    assert.equal(abi.value(name), value, `${name} in the module's table`);
  }
});

test('the module gives every tensor slot and attribute of src/call.def, each field by name', () => {
  assert.deepEqual(abi.tensors, callList('TENSOR'));
  assert.deepEqual(abi.attrs, callList('ATTR'));
  for (const role of abi.tensors) {
    for (const f of ['ptr', 'dtype', 'rank', 'shape']) assert.equal(typeof abi.call[`${role}.${f}`], 'number', `${role}.${f}`);
  }
  for (const a of abi.attrs) assert.equal(typeof abi.call[`attrs.${a}`], 'number', `attrs.${a}`);
  assert.ok(abi.call.size > abi.call['workspace.shape'], 'the record holds its last slot');
});

test('every status of C has words in js/errors.mjs or in the one descriptor of its op, and none other has', () => {
  const statuses = [...headerConstants().keys()].filter((k) => k.startsWith('WG_ERR_')).sort();
  // An op may word a shared status its own way (tensorScatter's write indices); a status of its
  // own has its words in one place: its descriptor, or the module the ops that share it take
  // them from (a family: js/quant-table.mjs, js/segment-options.mjs).
  const where = new Map(), twice = [];
  for (const d of OPS) {
    for (const [k, f] of Object.entries(d.messages ?? {})) {
      if (STATUS_NAMES.includes(k)) continue;
      const place = f.family ?? d.name;
      if (where.has(k) && where.get(k) !== place) twice.push(k);
      where.set(k, place);
    }
  }
  assert.deepEqual(twice, [], 'a status worded in two places');
  const own = [...where.keys()];
  assert.equal(new Set(STATUS_NAMES).size, STATUS_NAMES.length);
  // WG_ERR_INVALID_ARGUMENT means the binding passed something C refuses: an internal error.
  assert.deepEqual([...STATUS_NAMES, ...own].sort(), statuses.filter((k) => k !== 'WG_ERR_INVALID_ARGUMENT'));
});

test('every op of src/ops.def has its number from the module and a descriptor in js/ops/ that takes what C says', () => {
  const ops = opsInTable();
  assert.deepEqual(Object.keys(abi.ops), ops);
  ops.forEach((name, i) => assert.equal(abi.ops[name].number, i));
  assert.deepEqual(OPS.map((d) => d.c).sort(), [...ops].sort());
  checkOps(abi);
  // a descriptor that disagrees with the module fails init's check
  const take = abi.ops.take;
  for (const changed of [{ own: ['axis'] }, { inputs: ['data'] }, { own: [...take.own, 'bits'] }]) {
    assert.throws(() => checkOps({ ...abi, ops: { ...abi.ops, take: { ...take, ...changed } } }),
      /^Error: init: the wasm module's op take .*different builds/, JSON.stringify(changed));
  }
  // and what the table says an op takes: input slots in slot order, its own attributes
  assert.deepEqual(take.inputs, ['data', 'indices']);
  assert.deepEqual(abi.ops.gather_block_quantized.inputs, ['data', 'indices', 'scales', 'zero_points']);
  assert.deepEqual([...take.own].sort(), ['axis', 'batch_dims']);
});

test('a module that lacks a constant JS needs is refused, saying the builds differ', () => {
  const table = new Map([...'WG_MAX_RANK WG_OK'.split(' ').map((k) => [k, abi.value(k)])]);
  assert.throws(() => abiFromTable(table), /^Error: init: the wasm module does not define .*WG_OOB_ERROR.*wg_call\.op.*different builds/);
});

test('a build with every shared number and field moved passes the op suites unchanged', () => {
  const api = renumberedBuild(); // statuses 85-99, arguments 40-45, index types and modes reversed, ops reversed
  const suites = ['ops/gather', 'ops/gather-nd', 'ops/take', 'ops/gather-block-quantized', 'unit/api-errors']
    .map((f) => fileURLToPath(new URL(`../${f}.test.mjs`, import.meta.url)));
  const env = { ...process.env, WG_TEST_API: api };
  delete env.NODE_TEST_CONTEXT; // a node --test of its own, reporting in TAP
  const r = spawnSync(process.execPath, ['--test', ...suites], { encoding: 'utf8', env, timeout: 300000 });
  const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(r.stdout)?.[1]);
  assert.equal(r.status, 0, `the suites failed against ${api}:\n${r.stdout.split('\n').filter((l) => /^not ok|# (pass|fail)/.test(l)).join('\n')}`);
  assert.ok(count('pass') > 50 && count('fail') === 0, `passed ${count('pass')}, failed ${count('fail')}`);
});
