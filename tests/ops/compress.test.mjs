// compress (ONNX Compress, numpy.compress) against common/reference-mask.mjs, bit for bit,
// through tests/lib/mask-suite.mjs: seeded random cases (every array type, conditions of every
// type, shorter ones, axes negative too, no axis, a million elements) in both builds at 1, 2 and 4
// threads; resident tensors, opts.out, prepare() refused; its errors; onnxruntime-web's Compress
// live (PyTorch has no compress: no fixtures).
import { maskErrorSuite, maskOrtSuite, maskSuite } from '../lib/mask-suite.mjs';

maskSuite('compress');
maskErrorSuite('compress');
maskOrtSuite('compress');
