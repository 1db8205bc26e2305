// nonZero (ONNX NonZero, torch.nonzero, tf.where) against common/reference-mask.mjs, bit for bit,
// through tests/lib/mask-suite.mjs: seeded random cases (every array type, float16 and bfloat16
// bits by opts.dtype, both layouts and index types, ranks 0 to 6, a million elements) in both
// builds at 1, 2 and 4 threads; PyTorch 1.13's fixtures (a rank-0 x in the onnx layout gives
// onnxruntime-web's [1, nnz], not torch's transposed [0, nnz]); resident tensors, opts.out,
// prepare() refused; its errors; onnxruntime-web's NonZero live.
import { maskErrorSuite, maskOrtSuite, maskSuite } from '../lib/mask-suite.mjs';

maskSuite('nonZero');
maskErrorSuite('nonZero');
maskOrtSuite('nonZero');
