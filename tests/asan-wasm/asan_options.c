/* AddressSanitizer's run-time options for the sanitized wasm build (CMake WG_WASM_ASAN), read by
 * the runtime at start-up through this documented hook:
 * https://github.com/google/sanitizers/wiki/AddressSanitizerFlags#run-time-flags
 *
 * allocator_may_return_null=1: malloc returns NULL when it cannot allocate, as in the shipped
 * build (-sABORTING_MALLOC=0), so the library's "more than wasm memory can hold" RangeError is
 * tested as it ships instead of turning into an allocator report (ASan still prints a one-line
 * "WARNING: AddressSanitizer failed to allocate", and tests/asan-wasm/child.mjs counts any
 * sanitizer text as a finding: the suites run against this build make no such request). Every
 * other option keeps its default: a report on the first error, then abort. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) { return "allocator_may_return_null=1"; }
