// scatterND: seeded random cases against common/reference-scatter.mjs in every configuration,
// resident and in place, and its errors.
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { scatterSuite } from '../lib/scatter-suite.mjs';

scatterSuite('scatterND');
// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs.mjs).
badInputSuite('scatterND');
