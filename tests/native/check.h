/* CHECK(cond): counts a failed condition in `failures` and says where, without stopping, so a
 * run reports every failure. Each C test defines `static int failures` and returns it. */
#ifndef WG_TEST_CHECK_H
#define WG_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
      failures++;                                                                      \
    }                                                                                  \
  } while (0)

/* A float32's bits, and the float32 of some bits (the kernels' tests compare bits). */
static inline uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

#endif
