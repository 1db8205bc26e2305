// The library the suites test: js/index.mjs, or the module WG_TEST_API names (a path, absolute
// or relative to the working directory, or a file: URL). tests/asan-wasm/asan-wasm.test.mjs runs suites
// against build/asan/js/index.mjs, the library with AddressSanitizer-built kernels; any other
// module with the same exports can be swapped in to check the harness itself. (Not named
// *-test.mjs: node --test tests/ would run it as a test file.)
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const spec = process.env.WG_TEST_API;
const url = !spec ? new URL('../../js/index.mjs', import.meta.url) : spec.startsWith('file:') ? spec : pathToFileURL(resolve(spec));
const api = await import(url);
if (spec) console.log(`# api under test: ${url}`); // for the runner of the suites (tests/asan-wasm/asan-wasm.test.mjs)

export default api;
/** The module's js/copy-plan.mjs (forcePath, pathCounts: which path moves the bytes), or null. */
export const copyPlan = await import(new URL('./copy-plan.mjs', url)).catch(() => null);
export const { dispose, prepare, gather, gatherElements, gatherND, heapStats, init, take, upload, scatter, scatterElements,
  scatterND, indexReduce, tensorScatter, embeddingBag, segmentReduce } = api;
