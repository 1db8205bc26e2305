// scatter (torch.scatter / scatter_reduce, ONNX ScatterElements): seeded random cases against
// common/reference-scatter.mjs in every configuration, resident and in place, and its errors.
import { scatterSuite } from '../lib/scatter-suite.mjs';

scatterSuite('scatter');
