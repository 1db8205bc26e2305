/* Regression tests for what the fuzz targets found (tests/fuzz/): hostile dims above INT64_MAX,
 * possible only where size_t is 64-bit, in tensors that are empty (so they exist). Run under
 * ASan + UBSan by tests/native/native.test.mjs. Each once misbehaved:
 *  - gather_nd took indices.shape[-1] = SIZE_MAX for a depth of -1 and accepted it;
 *  - a negative index wrapped by adding (int64_t)s, which is negative (and can overflow) for
 *    s > INT64_MAX, so valid indices were rejected; a uint64 index was saturated to INT64_MAX;
 *  - gather computed input strides for an empty input, which overflowed into offsets that
 *    formed pointers far outside it (UBSan: pointer overflow). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "wasm_gather.h"

static int failures = 0;

int main(void) {
#if SIZE_MAX > UINT32_MAX
  wg_error_info err;
  size_t out_shape[WG_MAX_RANK], out_rank;
  /* gather_nd: an index depth of SIZE_MAX is too deep, not -1 */
  const size_t p1[] = {3}, i1[] = {0, SIZE_MAX};
  CHECK(wg_gather_nd_shape(p1, 1, i1, 2, 0, out_shape, &out_rank, &err) == WG_ERR_INDEX_DEPTH);

  /* take along a dim of SIZE_MAX - 1 (the tensor is empty): -2, INT64_MIN and 2^63 + 5 are
   * valid indices there, SIZE_MAX - 1 is not */
  const size_t p2[] = {0, SIZE_MAX - 1}, i2[] = {3};
  const int64_t ok_signed[] = {-2, INT64_MIN, 7};
  const uint64_t ok_unsigned[] = {(1ull << 63) + 5, 0, SIZE_MAX - 2};
  const uint64_t bad_unsigned[] = {0, SIZE_MAX - 1, 1};
  char none;
  CHECK(wg_take(NULL, &none, p2, 2, ok_signed, WG_INDEX_I64, i2, 1, 1, 0, 4, WG_OOB_ERROR, &none, &err) == WG_OK);
  CHECK(wg_take(NULL, &none, p2, 2, ok_unsigned, WG_INDEX_U64, i2, 1, 1, 0, 4, WG_OOB_ERROR, &none, &err) == WG_OK);
  CHECK(wg_take(NULL, &none, p2, 2, bad_unsigned, WG_INDEX_U64, i2, 1, 1, 0, 4, WG_OOB_ERROR, &none, &err) ==
        WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 1 && err.limit == (int64_t)(SIZE_MAX - 1));

  /* gather from an empty input with a huge dim, in zero mode: 125 zeros, nothing read */
  const size_t x3[] = {0, 5, INT64_MAX}, i3[] = {5, 5, 5};
  int64_t idx3[125], out3[125];
  for (int i = 0; i < 125; ++i) idx3[i] = i - 60;
  memset(out3, 0x5A, sizeof out3);
  CHECK(wg_gather(NULL, &none, x3, 3, 0, idx3, WG_INDEX_I64, i3, 3, 8, WG_OOB_ZERO, out3, &err) == WG_OK);
  int zeros = 1;
  for (int i = 0; i < 125; ++i) zeros &= out3[i] == 0;
  CHECK(zeros);
  printf("hostile dims: %d failed\n", failures);
#else
  printf("hostile dims: skipped (32-bit size_t)\n");
#endif
  return failures != 0;
}
