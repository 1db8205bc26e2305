// Checks that the native driver computes what the JS reference computes: for every workload, the
// FNV-1a hashes of the generated data and indices and of the output must equal those of
// makeTensors(w) and of common/reference.mjs run on it. Builds the driver if needed.
//   node bench/native/check.mjs [--only W1,W3]
// Prints a table; exits 1 on any mismatch. The reference is deliberately simple, so this takes
// several seconds, most of it in the JS reference.
import { spawnSync } from 'node:child_process';
import { buildNative } from './build.mjs';
import { caller } from '../../common/op-caller.mjs';
import { refOps } from '../../common/reference.mjs';
import { WORKLOADS, makeTensors, fnv1a } from '../../common/workloads.mjs';

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? process.argv[onlyArg + 1].split(',') : null;
const workloads = only ? WORKLOADS.filter((w) => only.includes(w.id)) : WORKLOADS;

const bin = await buildNative();
const args = ['--min-ms', '1', '--only', workloads.map((w) => w.id).join(',')];
const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 16 << 20 });
if (r.status !== 0) {
  console.error(`${bin} ${args.join(' ')} exited with ${r.status ?? r.signal}:\n${r.stderr}`);
  process.exit(1);
}
const native = new Map(r.stdout.trim().split('\n').map((line) => {
  const o = JSON.parse(line);
  return [o.workload, o];
}));

const rows = [];
let ok = true;
for (const w of workloads) {
  const n = native.get(w.id);
  const t = makeTensors(w);
  const out = caller(refOps, w)(t.data, t.indices).data;
  const js = { data: fnv1a(t.data.data), indices: fnv1a(t.indices.data), out: fnv1a(out) };
  const match = n !== undefined && n.dataHash === js.data && n.indexHash === js.indices &&
    n.hash === js.out && n.outBytes === out.byteLength;
  ok &&= match;
  rows.push({
    workload: w.id,
    'data (native/js)': `${n?.dataHash} ${js.data}`,
    'indices (native/js)': `${n?.indexHash} ${js.indices}`,
    'output (native/js)': `${n?.hash} ${js.out}`,
    outBytes: out.byteLength,
    match: match ? 'yes' : 'NO',
  });
}
console.table(rows);
if (!ok) {
  console.error('bench-native: native and reference hashes differ');
  process.exit(1);
}
console.log(`all ${rows.length} workloads match`);
