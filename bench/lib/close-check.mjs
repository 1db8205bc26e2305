// The output check of a peer that computes the E workloads in another order or another rounding
// (onnxruntime's ReduceSum, tfjs's mean of pre-scaled rows): bitwise where it is, else each value
// within ULPS units in the last place of its output row's largest magnitude. That bounds any
// reordering of the sum of a bag's 32 rows (at most 31 roundings, each half an ulp of a partial
// sum no larger than the row's sum of magnitudes), and a wrong row or weight misses it by far.
// The checked run's result goes into the row's note: bitwise, or the worst distance seen.
import { sameBytes } from '../../common/bytes.mjs';

export const ULPS = 64;

// One unit in the last place of float32 at magnitude m (> 0).
const ulp = (m) => 2 ** (Math.floor(Math.log2(m)) - 23);

/** A check for runGroup (inst.same) of an output of rows of `dim` values; notes into inst. */
export function closeTo(inst, dim, why) {
  return (out, expected) => {
    const say = (s) => { inst.note = [inst.note, `${why}: ${s}`].filter(Boolean).join('; '); };
    if (out.length !== expected.length) return false;
    if (sameBytes(out, expected)) {
      say('its checked run was bitwise equal to the reference');
      return true;
    }
    let worst = 0, off = 0;
    for (let r = 0; r < expected.length; r += dim) {
      let m = 0;
      for (let e = r; e < r + dim; e++) m = Math.max(m, Math.abs(expected[e]));
      const u = m > 0 ? ulp(m) : 2 ** -149;
      for (let e = r; e < r + dim; e++) {
        const d = Math.abs(out[e] - expected[e]) / u;
        if (!(d <= ULPS)) return false;
        if (d > 0) off++;
        worst = Math.max(worst, d);
      }
    }
    say(`checked within ${ULPS} ulp of each output row's largest value, not bitwise: ${off} of ${expected.length} values differ, by up to ${worst.toFixed(1)} ulp`);
    return true;
  };
}
