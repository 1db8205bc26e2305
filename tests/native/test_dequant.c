/* The dequantizing micro-kernels of src/dequant_kernels.h by themselves:
 * - wg_f32_to_f16 and wg_f32_to_bf16 against a plain round-to-nearest-even (written from the
 *   IEEE 754 rules, as common/reference-quantized.mjs's f32ToF16 is): every 97th float32, and
 *   with --all every float32 (24 s natively, too slow for the sanitized runs of npm test);
 * - wg_f16_to_f32 on every float16 (exact, and back again);
 * - each of the 12 kernels against the one-value formula, for every start code c0 (odd nibbles
 *   and partial bytes), length, block size (1, 16, 32) and phase in the first block, with a
 *   guard on both sides of the output (nothing written outside it);
 * - each of the 3 sum kernels (wg_dequant_sum_*) against the same formula summed row by row in
 *   order, for 0 to 9 rows, lengths with and without a tail, blocks of 16 to 128 and phases on
 *   16 columns, with guards beside the accumulators. Natively this is the scalar path; the wasm SIMD path is checked against the JS
 *   reference (tests/ops/gather-block-quantized.test.mjs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dequant_kernels.h"

static int failures = 0;

/* m >> shift, rounded to nearest even. */
static uint32_t round_shift(uint32_t m, unsigned shift) {
  uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return rem > half || (rem == half && (h & 1)) ? h + 1 : h;
}

static uint16_t plain_f16(uint32_t b) {
  uint32_t sign = (b >> 16) & 0x8000, exp = (b >> 23) & 0xff, mant = b & 0x7fffff;
  if (exp == 0xff) return (uint16_t)(sign | (mant ? 0x7e00 : 0x7c00));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00);
  if (e <= 0) return (uint16_t)(e < -10 ? sign : sign | round_shift(mant | 0x800000, (unsigned)(14 - e)));
  return (uint16_t)(sign | round_shift(((uint32_t)e << 23) | mant, 13));
}

static uint16_t plain_bf16(uint32_t b) {
  if ((b & 0x7fffffff) > 0x7f800000) return (uint16_t)(((b >> 16) & 0x8000) | 0x7fc0);
  return (uint16_t)(((uint64_t)b + 0x7fff + ((b >> 16) & 1)) >> 16); /* as round_shift(b, 16) */
}

static void check_conversions(uint64_t step) {
  uint64_t bad16 = 0, bad_bf = 0;
  for (uint64_t i = 0; i <= 0xffffffffu; i += step) {
    uint32_t b = (uint32_t)i;
    float f = float_of(b);
    if (wg_f32_to_f16(f) != plain_f16(b) && bad16++ < 5) {
      fprintf(stderr, "f16(0x%08x) = 0x%04x, want 0x%04x\n", b, wg_f32_to_f16(f), plain_f16(b));
    }
    if (wg_f32_to_bf16(f) != plain_bf16(b) && bad_bf++ < 5) {
      fprintf(stderr, "bf16(0x%08x) = 0x%04x, want 0x%04x\n", b, wg_f32_to_bf16(f), plain_bf16(b));
    }
  }
  CHECK(bad16 == 0);
  CHECK(bad_bf == 0);
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    float f = wg_f16_to_f32((uint16_t)h);
    int nan = ((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff);
    if (nan) {
      CHECK(isnan(f));
    } else {
      CHECK(wg_f32_to_f16(f) == h); /* exact: back to the same bits */
    }
    CHECK(bits_of(wg_bf16_to_f32((uint16_t)h)) == h << 16);
  }
}

static const struct {
  const char* name;
  wg_dequant_fn fn;
  unsigned bits;
  int is_signed;
  wg_scale_type out;
} KERNELS[] = {
#define ENTRY(c, o, bits, is_signed, type) {#c "_" #o, wg_dequant_##c##_##o, bits, is_signed, type},
    WG_DEQUANT_KERNELS(ENTRY)
#undef ENTRY
};

enum { CODES = 96, GUARD = 16, POISON = 0xEE, MAX_N = 70 };

static void check_kernels(void) {
  uint8_t codes[CODES];
  uint32_t rng = 12345;
  for (size_t i = 0; i < CODES; ++i) rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5, codes[i] = (uint8_t)rng;
  /* one scale and zero point a block, cycling through these */
  const float SCALES[] = {0.5f, -3.25f, 1e-6f, 70000.0f, 0x1p-20f, -0.0f, 1e30f};
  enum { NS = sizeof SCALES / sizeof SCALES[0] };
  float scales[MAX_N];
  int32_t zps[MAX_N];
  for (size_t k = 0; k < sizeof KERNELS / sizeof KERNELS[0]; ++k) {
    const unsigned per = 8 / KERNELS[k].bits;
    const size_t width = wg_scale_bytes(KERNELS[k].out);
    CHECK(wg_pick_dequant(KERNELS[k].bits, KERNELS[k].is_signed, KERNELS[k].out) == KERNELS[k].fn);
    for (size_t b = 0; b < MAX_N; ++b) {
      scales[b] = SCALES[b % NS];
      zps[b] = (int32_t)(b * 3 % (1u << KERNELS[k].bits)) - (KERNELS[k].is_signed ? 8 : 0);
    }
    /* blocks of 1 (the general path), 16 and 32 codes, starting at any phase */
    static const size_t BLOCKS[] = {1, 16, 32};
    for (size_t bi = 0; bi < 3; ++bi) {
      const size_t block = BLOCKS[bi];
      for (size_t c0 = 0; c0 < 8; ++c0) {
        for (size_t phase = 0; phase < block && phase < 20; phase += block > 1 ? 3 : 1) {
          for (size_t n = 0; n + c0 <= 64 * per && n <= MAX_N; ++n) {
            uint8_t out[GUARD + MAX_N * 4 + GUARD];
            memset(out, POISON, sizeof out);
            KERNELS[k].fn(out + GUARD, codes, c0, n, block, phase, scales, zps);
            int ok = 1;
            for (size_t j = 0; j < n; ++j) {
              size_t blk = (phase + j) / block;
              float v = (float)(wg_code(codes, c0 + j, KERNELS[k].bits, KERNELS[k].is_signed) - zps[blk]) * scales[blk];
              uint8_t want[4];
              if (KERNELS[k].out == WG_SCALE_F32) {
                memcpy(want, &v, 4);
              } else {
                uint16_t h = KERNELS[k].out == WG_SCALE_F16 ? plain_f16(bits_of(v)) : plain_bf16(bits_of(v));
                memcpy(want, &h, 2);
              }
              ok &= memcmp(out + GUARD + j * width, want, width) == 0;
            }
            for (size_t g = 0; g < GUARD; ++g) ok &= out[g] == POISON && out[GUARD + n * width + g] == POISON;
            if (!ok && failures < 10) fprintf(stderr, "%s block %zu phase %zu c0 %zu n %zu\n", KERNELS[k].name, block, phase, c0, n);
            CHECK(ok);
          }
        }
      }
    }
  }
}

static const struct {
  const char* name;
  wg_dequant_sum_fn fn;
  unsigned bits;
  int is_signed;
} SUM_KERNELS[] = {
#define SUM_ENTRY(c, bits, is_signed) {#c, wg_dequant_sum_##c##_f32, bits, is_signed},
    WG_DEQUANT_SUM_KERNELS(SUM_ENTRY)
#undef SUM_ENTRY
};

enum { SUM_ROWS = 9, SUM_M = 200, SUM_BLOCKS = 16 };

static void check_sum_kernels(void) {
  static uint8_t codes[SUM_ROWS][SUM_M];
  uint32_t rng = 777;
  for (size_t r = 0; r < SUM_ROWS; ++r) {
    for (size_t i = 0; i < SUM_M; ++i) rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5, codes[r][i] = (uint8_t)rng;
  }
  const float SCALES[] = {0.5f, -3.25f, 1e-6f, 70000.0f, 0x1p-20f, -0.0f, 1e30f, 1e-40f};
  enum { NS = sizeof SCALES / sizeof SCALES[0] };
  float scales[SUM_ROWS][SUM_BLOCKS];
  int32_t zps[SUM_ROWS * SUM_BLOCKS];
  for (size_t k = 0; k < sizeof SUM_KERNELS / sizeof SUM_KERNELS[0]; ++k) {
    const unsigned bits = SUM_KERNELS[k].bits;
    const int sgn = SUM_KERNELS[k].is_signed;
    CHECK(wg_pick_dequant_sum(bits, sgn) == SUM_KERNELS[k].fn);
    static const size_t BLOCKS[] = {16, 32, 64, 128};
    static const size_t LENGTHS[] = {0, 1, 15, 16, 17, 32, 48, 64, 100, 128, 160};
    for (size_t bi = 0; bi < 4; ++bi) {
      const size_t block = BLOCKS[bi];
      for (size_t phase = 0; phase < block; phase += 16) {
        for (size_t li = 0; li < sizeof LENGTHS / sizeof LENGTHS[0]; ++li) {
          const size_t m = LENGTHS[li];
          if (m * bits / 8 > SUM_M) continue;
          const size_t nb = (phase + m + block - 1) / block;
          for (size_t n = 0; n <= SUM_ROWS; ++n) {
            const uint8_t* rows[SUM_ROWS];
            const float* sc[SUM_ROWS];
            for (size_t i = 0; i < n; ++i) {
              rows[i] = codes[(i * 5 + m) % SUM_ROWS];
              sc[i] = scales[i];
              for (size_t b = 0; b < SUM_BLOCKS; ++b) scales[i][b] = SCALES[(i + 3 * b + phase) % NS];
              for (size_t b = 0; b < nb; ++b) zps[i * nb + b] = (int32_t)((i + 7 * b) % (1u << bits)) - (sgn ? 8 : 0);
            }
            float acc[GUARD + SUM_M + GUARD], want[SUM_M];
            for (size_t j = 0; j < GUARD + SUM_M + GUARD; ++j) acc[j] = (float)j * 0.25f - 3.0f;
            memcpy(want, acc + GUARD, sizeof want);
            SUM_KERNELS[k].fn(acc + GUARD, m, n, rows, sc, zps, block, phase);
            for (size_t j = 0; j < m; ++j) {
              const size_t b = (phase + j) / block;
              for (size_t i = 0; i < n; ++i) want[j] = want[j] + (float)(wg_code(rows[i], j, bits, sgn) - zps[i * nb + b]) * sc[i][b];
            }
            int ok = memcmp(acc + GUARD, want, m * sizeof *want) == 0;
            for (size_t g = 0; g < GUARD; ++g) {
              ok &= acc[g] == (float)g * 0.25f - 3.0f;
              ok &= acc[GUARD + m + g] == (float)(GUARD + m + g) * 0.25f - 3.0f;
            }
            if (!ok && failures < 10) fprintf(stderr, "sum %s block %zu phase %zu m %zu n %zu\n", SUM_KERNELS[k].name, block, phase, m, n);
            CHECK(ok);
          }
        }
      }
    }
  }
}

int main(int argc, char** argv) {
  check_conversions(argc > 1 && strcmp(argv[1], "--all") == 0 ? 1 : 97);
  check_kernels();
  check_sum_kernels();
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("dequant: ok\n");
  return failures != 0;
}
