/* The thread tests' pools (test_*_threads.c): the sizes from the command line, a pool that runs
 * every call in parallel, and their values. Include after check.h, the test's `failures` and its
 * THREAD_TEST_SEED. Usage of a test: <test> [--pools 6,8,12,16]: the real pools' sizes (each from 2 to
 * 64; by default 2, 3, 4 and 16). On a machine with many cores, every count up to them
 * (docs/testing.md). */
#ifndef WG_TEST_THREAD_POOLS_H
#define WG_TEST_THREAD_POOLS_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parallel.h"
#include "wasm_gather.h"

/* The tests' hook (wg_test_hook; main sets main_thread first): the caller yields once it has
 * published a job, and workers count the tiles they run (the run fails if none did); a worker
 * that takes a chunk of a scatter pipeline waits 100 us before resolving it, so that the applier
 * meets chunks still being resolved and must wait for them (counted). */
static pthread_t main_thread;
static atomic_size_t worker_tiles, chunks_awaited;
static void hook(wg_test_hook_point point) {
  int caller = pthread_equal(pthread_self(), main_thread);
  if (caller && point == WG_HOOK_CALLER_PUBLISHED) sched_yield();
  if (!caller && point == WG_HOOK_WORKER_RELOADED) atomic_fetch_add(&worker_tiles, 1);
  if (!caller && point == WG_HOOK_CHUNK_TAKEN) nanosleep(&(struct timespec){0, 100000}, NULL);
  if (point == WG_HOOK_CHUNK_AWAITED) atomic_fetch_add(&chunks_awaited, 1);
}

/* The tests' values: xorshift64 from the test's THREAD_TEST_SEED. */
static uint64_t rng = THREAD_TEST_SEED;
static uint64_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

/* MOST: the largest default pool, and the top of the shuffled-order sweep (2..MOST). */
enum { MOST = 16, MAX_POOLS = 64 };

static wg_pool* pool_of(size_t threads) {
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(threads, &pool) == WG_OK && wg_pool_threads(pool) == threads);
  wg_pool_set_parallel_threshold(pool, 0); /* every call on the pool */
  return pool;
}

/* The pools' sizes into real (room for MAX_POOLS); their count. A bad command line exits 2. */
static size_t parse_pools(int argc, char** argv, size_t* real) {
  if (argc == 1) {
    const size_t dflt[] = {2, 3, 4, MOST};
    memcpy(real, dflt, sizeof dflt);
    return 4;
  }
  size_t n = 0;
  char* at = argc == 3 && strcmp(argv[1], "--pools") == 0 ? argv[2] : NULL;
  while (at && *at && n < MAX_POOLS) {
    char* end;
    unsigned long t = strtoul(at, &end, 10);
    if (end == at || t < 2 || t > 64 || (*end && *end != ',')) break;
    real[n++] = t;
    at = *end ? end + 1 : end;
  }
  if (!at || *at || n < 2) {
    fprintf(stderr, "usage: %s [--pools N,N,...] (at least two sizes, each from 2 to 64)\n", argv[0]);
    exit(2);
  }
  return n;
}

#endif
