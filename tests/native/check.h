/* CHECK(cond): counts a failed condition in `failures` and says where, without stopping, so a
 * run reports every failure. Each C test defines `static int failures` and returns it. */
#ifndef WG_TEST_CHECK_H
#define WG_TEST_CHECK_H

#include <stdio.h>

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
      failures++;                                                                      \
    }                                                                                  \
  } while (0)

#endif
