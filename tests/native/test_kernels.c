/* Each fused micro-kernel of src/copy_kernels.h by itself (as XNNPACK tests its micro-kernels):
 * every element width and index type, index depths 1 to 4, a row (depth 1, scale = the width,
 * no ramp: the no-multiply path and, in wasm, the v128 row loop), strided rows, a ramp, and the
 * depth-3 triples (in wasm, the v128 triple loop). Each case is run clean and with one bad index
 * placed in turn at every block and component, of every kind (s, -s - 1, huge): the kernel must
 * return exactly the bad block's position, have copied every block before it, and have written
 * nothing from it on. Built natively by CTest (with the sanitizers of tests/native/native.test.mjs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "copy_kernels.h"

static int failures = 0;

static const struct {
  const char* name;
  wg_fused_fn fn;
  size_t width;
  int index64;
} KERNELS[] = {
    {"x8_i32", wg_fused_x8_i32, 1, 0},   {"x16_i32", wg_fused_x16_i32, 2, 0},
    {"x32_i32", wg_fused_x32_i32, 4, 0}, {"x64_i32", wg_fused_x64_i32, 8, 0},
    {"x8_i64", wg_fused_x8_i64, 1, 1},   {"x16_i64", wg_fused_x16_i64, 2, 1},
    {"x32_i64", wg_fused_x32_i64, 4, 1}, {"x64_i64", wg_fused_x64_i64, 8, 1},
};

enum { N = 23, POISON = 0xEE }; /* blocks per call: not a multiple of 4 */

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static int64_t rand_index(size_t s) { /* in [-s, s) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (int64_t)(rng % (2 * s)) - (int64_t)s;
}

/* One call: depth D, dims `sizes`, byte `scales`, `ramp`; a bad value at block bad_j, component
 * bad_c (bad_j == N: none). Returns 1 if the kernel behaved. */
static int run_case(size_t k, size_t D, const size_t* sizes, const size_t* scales, size_t ramp,
                    size_t bad_j, size_t bad_c, int64_t bad) {
  size_t w = KERNELS[k].width, span = 0;
  for (size_t c = 0; c < D; ++c) span += (sizes[c] - 1) * scales[c];
  size_t src_bytes = (N - 1) * ramp + span + w;
  uint8_t* src = malloc(src_bytes);
  uint8_t* dst = malloc(N * w);
  int64_t idx[N * 4];
  for (size_t i = 0; i < src_bytes; ++i) src[i] = (uint8_t)(i * 31 + 7);
  for (size_t j = 0; j < N; ++j) {
    for (size_t c = 0; c < D; ++c) idx[j * D + c] = rand_index(sizes[c]);
  }
  if (bad_j < N) idx[bad_j * D + bad_c] = bad;
  int32_t idx32[N * 4];
  for (size_t i = 0; i < N * D; ++i) idx32[i] = (int32_t)idx[i];
  memset(dst, POISON, N * w);
  size_t got = KERNELS[k].fn(dst, src, KERNELS[k].index64 ? (const void*)idx : (const void*)idx32, N,
                             D, sizes, scales, ramp);
  int ok = got == (bad_j < N ? bad_j : N);
  for (size_t j = 0; ok && j < N; ++j) {
    if (j < got) {
      size_t off = j * ramp;
      for (size_t c = 0; c < D; ++c) {
        int64_t v = idx[j * D + c];
        off += (size_t)(v < 0 ? v + (int64_t)sizes[c] : v) * scales[c];
      }
      ok = memcmp(dst + j * w, src + off, w) == 0;
    } else {
      for (size_t b = 0; b < w; ++b) ok &= dst[j * w + b] == POISON;
    }
  }
  if (!ok) {
    fprintf(stderr, "%s depth %zu scale0 %zu ramp %zu bad at %zu.%zu (%lld): returned %zu\n",
            KERNELS[k].name, D, scales[0], ramp, bad_j, bad_c, (long long)bad, got);
  }
  free(src);
  free(dst);
  return ok;
}

/* The layouts of one kernel: rows, strided rows, ramps, tuples of depth 2 to 4. */
static void test_kernel(size_t k, size_t* cases) {
  size_t w = KERNELS[k].width;
  const size_t sizes[4] = {7, 5, 6, 3};
  for (size_t D = 1; D <= 4; ++D) {
    for (int layout = 0; layout < 3; ++layout) {
      size_t scales[4], stride = w * (layout == 1 ? 3 : 1); /* dense, or every third element */
      for (size_t c = D; c-- > 0;) {
        scales[c] = stride;
        stride *= sizes[c];
      }
      size_t ramp = layout == 2 ? stride : 0;
      CHECK(run_case(k, D, sizes, scales, ramp, N, 0, 0));
      ++*cases;
      for (size_t j = 0; j < N; ++j) {
        for (size_t c = 0; c < D; ++c) {
          const int64_t s = (int64_t)sizes[c];
          const int64_t bad[] = {s, -s - 1, KERNELS[k].index64 ? INT64_MIN : INT32_MIN,
                                 KERNELS[k].index64 ? (int64_t)1 << 32 : INT32_MAX};
          for (size_t b = 0; b < 4; ++b) {
            CHECK(run_case(k, D, sizes, scales, ramp, j, c, bad[b]));
            ++*cases;
          }
        }
      }
    }
  }
}

int main(void) {
  size_t cases = 0;
  for (size_t k = 0; k < sizeof KERNELS / sizeof KERNELS[0]; ++k) test_kernel(k, &cases);
  printf("fused kernels: %zu cases\n", cases);
  printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures != 0;
}
