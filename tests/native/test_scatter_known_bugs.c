/* KNOWN BUGS of src/: each check below FAILS until src/ is fixed (then this file's checks join
 * tests/native/test_scatter_hostile.c, and sc_known_bug in tests/fuzz/fuzz_ops.c goes). CMake
 * builds it; CTest runs it only once it is registered (add_test), as it must be when fixed.
 * tensor_scatter's write indices, against the rule of src/wasm_gather.h ("a negative write index
 * is an error"; linear: the write must fit, write_index + update_len <= cache_len; circular: it
 * wraps modulo cache_len), which the fuzz target found broken in two corners (a third, an update
 * of length 0 whose write indices went unchecked, is fixed: tests/native/test_scatter_hostile.c):
 *  1. Circular mode: a write index of SIZE_MAX or more (as an unsigned value) is refused: the
 *     index check's size is SIZE_MAX (src/op_tensor_scatter.c, index_size), and an index must be
 *     below it. In wasm32 that is every write index from 2^32 - 1 on (a BigInt64Array's 2^32
 *     cannot wrap); natively only UINT64_MAX of a uint64 tensor.
 *  2. Linear mode with cache_len - update_len == SIZE_MAX (an empty cache of a huge length):
 *     index_size = cache_len - update_len + 1 wraps to 0, so every write index is refused. */
#include <stdio.h>

#include "check.h"
#include "wasm_gather.h"

static int failures = 0;

int main(void) {
#if SIZE_MAX > UINT32_MAX
  wg_error_info err;
  /* 1: cache [1, 4] of uint8, circular, an update of 2 from UINT64_MAX: positions
   * (UINT64_MAX % 4 + s) % 4 = 3, 0 */
  uint8_t c8[4] = {1, 2, 3, 4}, u8[2] = {9, 8}, o8[4] = {0};
  const size_t cache_c[2] = {1, 4}, update_c[2] = {1, 2};
  const uint64_t huge[1] = {UINT64_MAX};
  CHECK(wg_tensor_scatter(NULL, c8, cache_c, 2, u8, update_c, 2, huge, WG_INDEX_U64, 1, 1, 1, o8, &err) == WG_OK);
  CHECK(o8[0] == 8 && o8[1] == 2 && o8[2] == 3 && o8[3] == 9);

  /* 2: cache [1, SIZE_MAX, 0] (empty) along axis 1, linear, an update of length 0 from 0 */
  const size_t cache_d[3] = {1, SIZE_MAX, 0}, update_d[3] = {1, 0, 0};
  const int32_t zero[1] = {0};
  CHECK(wg_tensor_scatter(NULL, c8, cache_d, 3, u8, update_d, 3, zero, WG_INDEX_I32, 1, 0, 1, o8, &err) == WG_OK);
#endif
  printf("scatter known bugs: %d check(s) failed (0 once src/ is fixed)\n", failures);
  return failures != 0;
}
