/* Native test of the C API: seed examples of each op, an out-of-range report, the same result
 * with a pool as without, and a memory-safety sweep: random shapes and wild indices in every
 * mode on exact-size heap buffers, so that AddressSanitizer (tests/native/native.test.mjs builds with
 * it) catches any read or write outside a tensor. Correctness of the values is checked in JS
 * against common/reference.mjs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "wasm_gather.h"

static int failures = 0;

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

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static size_t below(size_t n) { return n ? (size_t)(next_u64() % n) : 0; }

/* A wild index: usually near the valid range, sometimes huge or of the wrong sign. */
static int64_t wild_index(size_t s) {
  switch (below(6)) {
    case 0: return (int64_t)next_u64();
    case 1: return -(int64_t)s - 1 - (int64_t)below(3);
    case 2: return (int64_t)s + (int64_t)below(3);
    default: return (int64_t)below(2 * s + 1) - (int64_t)s;
  }
}

static void* exact_alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }

static size_t sweep_ran = 0, sweep_zero_or_clamped = 0;

static void test_memory_safety(wg_pool* pool) {
  static const wg_index_type types[] = {WG_INDEX_I32, WG_INDEX_U32, WG_INDEX_I64, WG_INDEX_U64};
  static const size_t widths[] = {1, 2, 4, 8, 12};
  for (int iter = 0; iter < 3000; ++iter) {
    size_t rank = 1 + below(4), irank = below(4);
    size_t shape[WG_MAX_RANK], ishape[WG_MAX_RANK], out_shape[WG_MAX_RANK], out_rank;
    for (size_t d = 0; d < rank; ++d) shape[d] = below(5);
    int op = (int)below(3);
    if (op == 2) irank = rank; /* gather: same rank */
    for (size_t d = 0; d < irank; ++d) ishape[d] = below(4);
    if (op == 1 && irank == 0) ishape[irank++] = below(3);
    if (op == 1) ishape[irank - 1] = below(rank + 1);
    int32_t axis = (int32_t)below(rank), batch = (int32_t)below(2);
    size_t elem = widths[below(5)];
    wg_index_type type = types[below(4)];
    wg_oob_mode mode = (wg_oob_mode)below(3);
    wg_status st = op == 0   ? wg_take_shape(shape, rank, ishape, irank, axis, batch, out_shape, &out_rank, NULL)
                   : op == 1 ? wg_gather_nd_shape(shape, rank, ishape, irank, batch, out_shape, &out_rank, NULL)
                             : wg_gather_shape(shape, rank, ishape, irank, axis, out_shape, &out_rank, NULL);
    if (st != WG_OK) continue;
    size_t n = 1, ni = 1, no = 1;
    for (size_t d = 0; d < rank; ++d) n *= shape[d];
    for (size_t d = 0; d < irank; ++d) ni *= ishape[d];
    for (size_t d = 0; d < out_rank; ++d) no *= out_shape[d];
    size_t iw = type == WG_INDEX_I32 || type == WG_INDEX_U32 ? 4 : 8;
    uint8_t* data = exact_alloc(n * elem);
    uint8_t* out = exact_alloc(no * elem);
    uint8_t* idx = exact_alloc(ni * iw);
    memset(data, 0x5A, n * elem);
    for (size_t i = 0; i < ni; ++i) {
      size_t s = shape[op == 0 ? (size_t)axis : 0];
      int64_t v = wild_index(s + below(3));
      if (iw == 4) { int32_t v32 = (int32_t)v; memcpy(idx + i * 4, &v32, 4); }
      else memcpy(idx + i * 8, &v, 8);
    }
    st = op == 0   ? wg_take(pool, data, shape, rank, idx, type, ishape, irank, axis, batch, elem, mode, out, NULL)
         : op == 1 ? wg_gather_nd(pool, data, shape, rank, idx, type, ishape, irank, batch, elem, mode, out, NULL)
                   : wg_gather(pool, data, shape, rank, axis, idx, type, ishape, irank, elem, mode, out, NULL);
    /* 12-byte elements are not supported: the op must refuse them, not run */
    CHECK(elem == 12 ? st == WG_ERR_INVALID_ARGUMENT
                     : st == WG_OK || (mode == WG_OOB_ERROR && st == WG_ERR_INDEX_OUT_OF_RANGE));
    sweep_ran++;
    if (st == WG_OK && no > 0 && mode != WG_OOB_ERROR) sweep_zero_or_clamped++;
    free(data);
    free(out);
    free(idx);
  }
}

/* The negative-index policy of the *_ex functions: under WG_NEGATIVE_ERROR a negative index is
 * out of range (clamped to 0, zeros, or the first bad index reported), in the fused element
 * sizes (int32, int64) and the general path; an unknown policy is refused. */
static void test_negative_policy(wg_pool* pool) {
  const uint8_t p[] = {10, 20, 30};
  const size_t pshape[] = {3}, tshape[] = {4};
  const int32_t ti[] = {-1, 0, 7, -3};
  uint8_t to[4];
  CHECK(wg_take_ex(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_CLAMP,
                   WG_NEGATIVE_ERROR, to, NULL) == WG_OK);
  CHECK(to[0] == 10 && to[1] == 10 && to[2] == 30 && to[3] == 10);
  CHECK(wg_take_ex(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_ZERO,
                   WG_NEGATIVE_ERROR, to, NULL) == WG_OK);
  CHECK(to[0] == 0 && to[1] == 10 && to[2] == 0 && to[3] == 0);
  CHECK(wg_take_ex(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_CLAMP,
                   WG_NEGATIVE_WRAP, to, NULL) == WG_OK);
  CHECK(to[0] == 30 && to[1] == 10 && to[2] == 30 && to[3] == 10);
  wg_error_info err;
  CHECK(wg_take_ex(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_ERROR,
                   WG_NEGATIVE_ERROR, to, &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 0 && err.value == -1 && err.limit == 3 && err.dim == 0);
  CHECK(wg_take_ex(pool, p, pshape, 1, ti, WG_INDEX_I32, tshape, 1, 0, 0, 1, WG_OOB_ERROR,
                   (wg_negative_mode)7, to, &err) == WG_ERR_INVALID_ARGUMENT);
  /* gather_nd, int64 tuples of 4-byte elements: (1, -1) is refused at position 3 */
  const float d[] = {1, 2, 3, 4, 5, 6};
  const size_t dshape[] = {3, 2}, ishape[] = {2, 2};
  const int64_t ind[] = {2, 1, 1, -1};
  float o[2];
  CHECK(wg_gather_nd_ex(pool, d, dshape, 2, ind, WG_INDEX_I64, ishape, 2, 0, 4, WG_OOB_ERROR,
                        WG_NEGATIVE_ERROR, o, &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 3 && err.value == -1 && err.limit == 2 && err.dim == 1);
  CHECK(wg_gather_nd_ex(pool, d, dshape, 2, ind, WG_INDEX_I64, ishape, 2, 0, 4, WG_OOB_CLAMP,
                        WG_NEGATIVE_ERROR, o, NULL) == WG_OK);
  CHECK(o[0] == 6 && o[1] == 3);
  CHECK(wg_gather_nd(pool, d, dshape, 2, ind, WG_INDEX_I64, ishape, 2, 0, 4, WG_OOB_ERROR, o,
                     NULL) == WG_OK);
  CHECK(o[0] == 6 && o[1] == 4);
  /* gather (torch.gather) along dim 1 */
  const int32_t gi[] = {1, 0, -2, 1};
  float g4[4];
  CHECK(wg_gather_ex(pool, d, dshape, 2, 1, gi, WG_INDEX_I32, ishape, 2, 4, WG_OOB_ZERO,
                     WG_NEGATIVE_ERROR, g4, NULL) == WG_OK);
  CHECK(g4[0] == 2 && g4[1] == 1 && g4[2] == 0 && g4[3] == 4);
  CHECK(wg_gather_ex(pool, d, dshape, 2, 1, gi, WG_INDEX_I32, ishape, 2, 4, WG_OOB_ZERO,
                     WG_NEGATIVE_WRAP, g4, NULL) == WG_OK);
  CHECK(g4[0] == 2 && g4[1] == 1 && g4[2] == 3 && g4[3] == 4);
#if SIZE_MAX > UINT32_MAX
  /* An empty tensor can have a dimension above 2^63 where size_t has 64 bits; a negative index
   * read as uint64_t is below it, yet still refused (found by fuzz_gather_nd). */
  const size_t hshape[] = {(size_t)-2, 0, 3}, hishape[] = {1, 2};
  const int64_t hind[] = {-3, 0};
  CHECK(wg_gather_nd_ex(pool, d, hshape, 3, hind, WG_INDEX_I64, hishape, 2, 0, 4, WG_OOB_ERROR,
                        WG_NEGATIVE_ERROR, o, &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 0 && err.value == -3 && err.dim == 0);
  const int32_t hti[] = {-3};
  const size_t htshape[] = {1};
  CHECK(wg_take_ex(pool, d, hshape, 3, hti, WG_INDEX_I32, htshape, 1, 0, 0, 4, WG_OOB_ERROR,
                   WG_NEGATIVE_ERROR, o, &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 0 && err.value == -3 && err.dim == 0);
#endif
}

int main(void) {
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(3, &pool) == WG_OK);
  CHECK(wg_pool_threads(pool) == 3);
  test_ops(NULL);
  test_ops(pool);
  test_large_parallel(pool);
  test_negative_policy(NULL);
  test_negative_policy(pool);
  test_memory_safety(NULL);
  wg_pool_set_parallel_threshold(pool, 0); /* split even tiny ops over the pool */
  test_memory_safety(pool);
  wg_pool_destroy(pool);
  printf("memory-safety sweep: %zu ops run, %zu non-empty in zero/clamp mode\n", sweep_ran,
         sweep_zero_or_clamped);
  CHECK(sweep_ran > 1000 && sweep_zero_or_clamped > 300);
  printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures != 0;
}
