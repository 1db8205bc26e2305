// maskedScatter (torch.Tensor.masked_scatter) against common/reference-mask.mjs, bit for bit,
// through tests/lib/mask-suite.mjs: seeded random cases (every array type, masks of every type,
// sources longer than the mask's true elements, a million elements) in both builds at 1, 2 and 4
// threads; PyTorch 1.13's fixtures; resident x, mask and source, in place, opts.out, a prepared
// call; its errors (a source too short writes nothing).
import { maskErrorSuite, maskSuite } from '../lib/mask-suite.mjs';

maskSuite('maskedScatter');
maskErrorSuite('maskedScatter');
