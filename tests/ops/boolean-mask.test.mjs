// booleanMask (tf.boolean_mask, torch.masked_select, x[mask]) against common/reference-mask.mjs,
// bit for bit, through tests/lib/mask-suite.mjs: seeded random cases (every array type, masks of
// every type, float masks with -0 and NaN, masks of 1 to 6 dims at any axis, negative too, a
// million elements) in both builds at 1, 2 and 4 threads; PyTorch 1.13's fixtures, but for its
// 0-d masks, which booleanMask refuses as tf.boolean_mask does; resident tensors, opts.out,
// prepare() refused; its errors.
import { maskErrorSuite, maskSuite } from '../lib/mask-suite.mjs';

maskSuite('booleanMask');
maskErrorSuite('booleanMask');
