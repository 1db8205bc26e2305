/* Native smoke test of the C API: the seed examples of each op, an out-of-range report and the
 * same result with a pool as without. The full matrix runs in JS against tests/reference.mjs. */
#include <stdio.h>
#include <string.h>

#include "wasm_gather.h"

static int failures = 0;
#define CHECK(cond)                                                    \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                      \
    }                                                                  \
  } while (0)

static void test_ops(wg_pool* pool) {
  /* torch.gather docs: gather([[1,2],[3,4]], 1, [[0,0],[1,0]]) = [[1,1],[4,3]] */
  const int32_t t[] = {1, 2, 3, 4};
  const int64_t idx[] = {0, 0, 1, 0};
  const size_t shape22[] = {2, 2};
  int32_t out[4] = {0};
  CHECK(wg_gather(pool, t, shape22, 2, 1, idx, WG_INDEX_I64, shape22, 2, 4, WG_OOB_ERROR, out,
                  NULL) == WG_OK);
  CHECK(out[0] == 1 && out[1] == 1 && out[2] == 4 && out[3] == 3);

  /* OpenVINO GatherND-8 example 5: batch_dims 1, slices */
  float data[24];
  for (int i = 0; i < 24; ++i) data[i] = (float)(i + 1);
  const size_t dshape[] = {2, 3, 4}, ishape[] = {2, 1};
  const int32_t ind[] = {1, 0};
  float o[8];
  CHECK(wg_gather_nd(pool, data, dshape, 3, ind, WG_INDEX_I32, ishape, 2, 1, 4, WG_OOB_ERROR, o,
                     NULL) == WG_OK);
  const float want[] = {5, 6, 7, 8, 13, 14, 15, 16};
  CHECK(memcmp(o, want, sizeof want) == 0);

  /* take with a negative index and the clamp / zero modes */
  const uint8_t p[] = {10, 20, 30};
  const size_t pshape[] = {3}, tshape[] = {4};
  const int32_t ti[] = {-1, 0, 7, -9};
  uint8_t to[4];
  CHECK(wg_take(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_CLAMP, to, NULL) ==
        WG_OK);
  CHECK(to[0] == 30 && to[1] == 10 && to[2] == 30 && to[3] == 10);
  CHECK(wg_take(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_ZERO, to, NULL) ==
        WG_OK);
  CHECK(to[0] == 30 && to[1] == 10 && to[2] == 0 && to[3] == 0);
  wg_error_info err;
  CHECK(wg_take(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_ERROR, to, &err) ==
        WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 2 && err.value == 7 && err.limit == 3 && err.dim == 0);
}

static void test_large_parallel(wg_pool* pool) {
  /* a take large enough to use the pool must match the serial result bit for bit */
  enum { ROWS = 4096, COLS = 64, N = 5000 };
  static float params[ROWS * COLS], a[N * COLS], b[N * COLS];
  static int32_t indices[N];
  for (int i = 0; i < ROWS * COLS; ++i) params[i] = (float)i;
  for (int i = 0; i < N; ++i) indices[i] = (i * 7919) % ROWS - (i % 2 ? ROWS : 0);
  const size_t pshape[] = {ROWS, COLS}, ishape[] = {N};
  CHECK(wg_take(NULL, params, pshape, 2, indices, WG_INDEX_I32, ishape, 1, 0, 0, 4, WG_OOB_ERROR, a,
                NULL) == WG_OK);
  CHECK(wg_take(pool, params, pshape, 2, indices, WG_INDEX_I32, ishape, 1, 0, 0, 4, WG_OOB_ERROR, b,
                NULL) == WG_OK);
  CHECK(memcmp(a, b, sizeof a) == 0);
  indices[N - 3] = ROWS;
  wg_error_info err;
  CHECK(wg_take(pool, params, pshape, 2, indices, WG_INDEX_I32, ishape, 1, 0, 0, 4, WG_OOB_ERROR, b,
                &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == N - 3);
}

int main(void) {
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(3, &pool) == WG_OK);
  CHECK(wg_pool_threads(pool) == 3);
  test_ops(NULL);
  test_ops(pool);
  test_large_parallel(pool);
  wg_pool_destroy(pool);
  printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures != 0;
}
