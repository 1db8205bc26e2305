/* tensor_scatter's write indices at the ends of size_t, which the fuzz target found refused
 * against the rule of src/wasm_gather.h (not negative; linear: the write fits; circular: any
 * other, modulo the cache's length):
 *  1. Circular mode: a write index of SIZE_MAX or more (as an unsigned value) is taken modulo
 *     the length like any other (it was checked against a bound of SIZE_MAX).
 *  2. Linear mode with cache_len - update_len == SIZE_MAX (an empty cache of a huge length): the
 *     bound of the write indices saturates at SIZE_MAX (cache_len - update_len + 1 wrapped to 0,
 *     refusing every write index). */
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
  printf("scatter write indices: %d check(s) failed\n", failures);
  return failures != 0;
}
