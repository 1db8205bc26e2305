/* parallelize_1d: run fn over [0, range) in tiles, on a wg_pool or (pool == NULL) on the caller. */
#ifndef WG_PARALLEL_H
#define WG_PARALLEL_H

#include "wasm_gather.h"

/* fn(ctx, start, count) handles items [start, start + count). Tiles are handed out dynamically
 * to at most `threads` threads (0: all the pool's); the caller thread takes tiles too and returns
 * when every tile is done. On the caller alone (a NULL pool, one thread or tile, or a pool busy
 * with another caller's job) fn gets the whole range at once. */
typedef void (*wg_task_fn)(void* ctx, size_t start, size_t count);

/* Bytes of output a tile should make: large enough to amortize handing it out, small enough to
 * balance (the ops' tile sizes). */
#define WG_TILE_BYTES (16 * 1024)

void wg_parallelize_1d(wg_pool* pool, wg_task_fn fn, void* ctx, size_t range, size_t tile, size_t threads);

/* A job the caller starts and joins later, so that it can do other work meanwhile (JS filling a
 * new array while a worker resolves what goes into it). wg_pool_start hands fn(ctx, 0, 1) to one
 * worker and returns 1 at once; it returns 0, starting nothing, when the pool has no worker free
 * (NULL, or busy with another caller's job), and the caller then runs fn itself. Until
 * wg_pool_join the pool is the started job's: jobs that fn or other callers give it run on their
 * own thread, as on a busy pool. wg_pool_join returns when fn is done; if no worker has claimed
 * it yet, the caller runs it then. The thread that started a job joins it. */
int wg_pool_start(wg_pool* pool, wg_task_fn fn, void* ctx);
void wg_pool_join(wg_pool* pool);

#ifdef WG_TEST_HOOKS
#include <stdatomic.h>

/* Test-only (compiled in with -DWG_TEST_HOOKS, never in a shipped build): the pool calls
 * wg_test_hook, when set, at these points of its job protocol, so that a test can force one
 * interleaving of the caller and a worker (tests/native/test_pool.c). */
typedef enum wg_test_hook_point {
  WG_HOOK_CALLER_JOB_WRITTEN, /* the caller wrote the next job, before it publishes it */
  WG_HOOK_CALLER_PUBLISHED,   /* the caller published the job, before it claims tiles itself */
  WG_HOOK_WORKER_RELOADED,    /* a worker finished a tile and reloaded the pool's state */
  WG_HOOK_WORKER_LEFT,        /* a worker stopped claiming tiles of the job it woke for */
  WG_HOOK_CHUNK_TAKEN,        /* a thread took a chunk of a pipeline (stage_scatter.c), before resolving it */
  WG_HOOK_CHUNK_AWAITED,      /* the pipeline's applier met a chunk another thread is resolving */
} wg_test_hook_point;
extern void (*_Atomic wg_test_hook)(wg_test_hook_point point); /* set it at any time */
#define WG_TEST_HOOK(point)                                        \
  do {                                                             \
    void (*hook)(wg_test_hook_point) = atomic_load(&wg_test_hook); \
    if (hook) hook(point);                                         \
  } while (0)

/* Test-only: while nonzero, a pool runs each job's tiles on the caller alone, in an order drawn
 * from this seed (a random affine permutation of the tiles, a new one each job), and still counts
 * as its threads: a call plans for the pool's threads (its parts, its pipeline) and its tiles run
 * in orders that a real schedule only meets now and then, on any machine (a 2-core one included:
 * tests/native/test_scatter_threads.c). */
extern _Atomic uint64_t wg_test_shuffle;

/* Test-only: the jobs worker `worker` (0 .. threads - 2) of a pool woke for (0 for none). */
size_t wg_pool_worker_wakes(const wg_pool* pool, size_t worker);

/* Test-only fault injection: makes wg_pool_create see this pthread call fail. */
typedef enum wg_test_fault {
  WG_FAULT_NONE,
  WG_FAULT_MUTEX_INIT, /* pthread_mutex_init */
  WG_FAULT_COND_INIT,  /* pthread_cond_init */
} wg_test_fault;
extern wg_test_fault wg_test_fail;
#else
#define WG_TEST_HOOK(point) ((void)0)
#endif

#endif
