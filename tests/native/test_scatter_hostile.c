/* Regression tests for what the scatters' fuzz targets found (tests/fuzz/fuzz_ops.c,
 * fuzz_scatter). Run under ASan + UBSan and ThreadSanitizer by tests/native/native.test.mjs.
 *  - tensor_scatter with write indices of an invalid index type: the type became "no index
 *    tensor" (the write indices are optional), so the run skipped the type check and read them
 *    as uint64: past the end of an array of 4-byte ones (ASan: heap-buffer-overflow), and, when
 *    the value read was out of range, it returned WG_OK without writing the output (the stage had
 *    stopped; the scan for the bad index only looks at an index tensor that is there). It must be
 *    WG_ERR_INVALID_ARGUMENT, nothing written.
 *  - tensor_scatter with an update of length 0 on a cache that is not empty: no item read the
 *    write indices, so a negative one (or one past the end) passed, while on an empty cache it
 *    was refused; the rule holds whatever there is to write (fixed in src/: the runner checks
 *    the indices first when no stage resolves them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "wasm_gather.h"

static int failures = 0;

int main(void) {
  const float cache[6] = {1, 2, 3, 4, 5, 6}, update[2] = {7, 8};
  const size_t cache_shape[2] = {2, 3}, update_shape[2] = {2, 1};
  /* {0, 0}: read as uint64, the second batch row's index is past the end; {-1, 0}: the first
   * row's is 0x00000000ffffffff, out of range */
  const int32_t firsts[2] = {0, -1};
  for (int k = 0; k < 2; ++k) {
    int32_t* write = malloc(2 * sizeof *write);
    write[0] = firsts[k];
    write[1] = 0;
    float out[6];
    memset(out, 0xA5, sizeof out);
    wg_error_info err;
    CHECK(wg_tensor_scatter(NULL, cache, cache_shape, 2, update, update_shape, 2, write, (wg_index_type)4, 1, 0,
                            sizeof(float), out, &err) == WG_ERR_INVALID_ARGUMENT);
    int untouched = 1;
    for (size_t i = 0; i < sizeof out; ++i) untouched &= ((const unsigned char*)out)[i] == 0xA5;
    CHECK(untouched);
    free(write);
  }
  /* no write indices at all (NULL): the index type is not looked at */
  float out[6];
  CHECK(wg_tensor_scatter(NULL, cache, cache_shape, 2, update, update_shape, 2, NULL, (wg_index_type)4, 1, 0,
                          sizeof(float), out, NULL) == WG_OK);
  CHECK(out[0] == 7 && out[1] == 2 && out[3] == 8 && out[4] == 5);
  /* an update of length 0: -1 is negative and 7 > 4 - 0, on a cache [2, 4] as on an empty [2, 4, 0] */
  const int32_t bad[2] = {-1, 7};
  const size_t cache_b[2] = {2, 4}, update_b[2] = {2, 0}, cache_e[3] = {2, 4, 0}, update_e[3] = {2, 0, 0};
  float big[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out8[8];
  memset(out8, 0xA5, sizeof out8);
  wg_error_info err;
  CHECK(wg_tensor_scatter(NULL, big, cache_b, 2, big, update_b, 2, bad, WG_INDEX_I32, 1, 0, sizeof(float), out8,
                          &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 0 && err.value == -1 && err.dim == 1 && err.limit == 5);
  CHECK(((const unsigned char*)out8)[0] == 0xA5); /* nothing written */
  CHECK(wg_tensor_scatter(NULL, big, cache_e, 3, big, update_e, 3, bad, WG_INDEX_I32, 1, 0, sizeof(float), out8,
                          &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 0 && err.value == -1 && err.dim == 1 && err.limit == 5);
  printf("scatter hostile inputs: %d failed\n", failures);
  return failures != 0;
}
