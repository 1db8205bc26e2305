/* A persistent pool of pthreads that the caller joins in on (pthreadpool style).
 * Workers spin briefly on a generation word of their own, then sleep on a condition variable of
 * their own, so a burst of back-to-back calls does not pay the full wake-up latency each time, and
 * a job wakes only the workers it needs (its helpers): a small job on 2 helpers of a 16-thread pool
 * leaves the other 13 asleep. Built without threads
 * (WG_NO_THREADS, the "simd" wasm variant) every pool is NULL and loops run on the caller. */
#include "parallel.h"

#include <stdlib.h>
#include <string.h>

/* On the caller alone, the whole range in one call: a tile is what threads hand out, and fn takes
 * any range (a small run then makes one call a stage, not one a tile: a one-row update's apply
 * stage had 16, one a part of the output it may have). */
static void run_serial(wg_task_fn fn, void* ctx, size_t range) {
  if (range) fn(ctx, 0, range);
}

#ifdef WG_NO_THREADS

wg_status wg_pool_create(size_t threads, wg_pool** pool) {
  (void)threads;
  if (pool == NULL) return WG_ERR_INVALID_ARGUMENT;
  *pool = NULL;
  return WG_OK;
}
size_t wg_pool_threads(const wg_pool* pool) { (void)pool; return 1; }
void wg_pool_set_parallel_threshold(wg_pool* pool, size_t min_bytes) { (void)pool; (void)min_bytes; }
size_t wg_pool_parallel_threshold(const wg_pool* pool) { (void)pool; return SIZE_MAX; }
void wg_pool_destroy(wg_pool* pool) { (void)pool; }
void wg_parallelize_1d(wg_pool* pool, wg_task_fn fn, void* ctx, size_t range, size_t tile, size_t threads) {
  (void)pool;
  (void)tile;
  (void)threads;
  run_serial(fn, ctx, range);
}
int wg_pool_start(wg_pool* pool, wg_task_fn fn, void* ctx) {
  (void)pool;
  (void)fn;
  (void)ctx;
  return 0;
}
void wg_pool_join(wg_pool* pool) { (void)pool; }

#else

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* Test-only hooks and fault injection (parallel.h); nothing in the shipped builds. */
#ifdef WG_TEST_HOOKS
void (*_Atomic wg_test_hook)(wg_test_hook_point point); /* NULL: no hook */
wg_test_fault wg_test_fail = WG_FAULT_NONE;
_Atomic uint64_t wg_test_shuffle; /* 0: tiles run on the pool */
#define INJECTED(fault) (wg_test_fail == (fault))

static size_t gcd(size_t a, size_t b) {
  while (b) {
    size_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The tiles in the order k -> (a * k + b) mod tiles, a coprime to tiles, both drawn from the
 * seed (a step of a 64-bit LCG, Knuth's MMIX constants), which moves on for the next job. */
static void run_shuffled(uint64_t seed, wg_task_fn fn, void* ctx, size_t range, size_t tile, size_t tiles) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  atomic_store(&wg_test_shuffle, seed | 1);
  size_t a = (size_t)(seed >> 33) % tiles | 1, b = (size_t)(seed >> 17) % tiles;
  while (gcd(a, tiles) != 1) a += 2;
  for (size_t k = 0, t = b; k < tiles; ++k, t = (t + a) % tiles) {
    size_t start = t * tile;
    fn(ctx, start, range - start < tile ? range - start : tile);
  }
}
#else
#define INJECTED(fault) 0
#endif

/* How long a worker spins after its last job before it sleeps. Waking a sleeping worker takes
 * 15-55 us in Node (more when the caller is busy), as long as a whole mid-sized op; a caller
 * making calls in a row (copying indices in between) leaves gaps of up to a few hundred us.
 * bench/run.mjs: 2000 spins (~10 us) gave W4a 57 us and W1 0.37 ms at 2 threads, ~300 us of
 * spinning 31 us and 0.27 ms. The cost is up to 300 us of one core after the last call. */
#define WG_SPIN_NS 300000
#define WG_SPIN_CLOCK_EVERY 1024 /* spins between looks at the clock (a JS call in wasm) */

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The job protocol.
 * The pool's state word holds the job's generation in the high half and its next unclaimed tile
 * in the low half. A worker claims a tile with one compare-and-swap on that word, which also
 * proves that the job it is looking at is still the current one; so the caller never waits for
 * workers that wake late (or not at all, on a busy machine), only for tiles that were claimed.
 *
 * A generation is closed (its tile set to CLOSED) before the next job is written. A worker that
 * finished the last tile of job G may still hold G's state (G, T) when the caller writes job G+1
 * with more tiles: without the close its compare-and-swap on (G, T) would succeed and run a tile
 * of G+1 that the caller does not count (a race tests/native/test_pool.c forces). With the
 * close, no claim on G can succeed once G is over, so:
 *  - a tile is claimed only under the generation of the job whose fields it reads, and the
 *    successful compare-and-swap (acquire) reads from the caller's publishing store (release):
 *    the job fields happen-before the worker reads them;
 *  - every claimed tile adds one to `completed` (release) when it is done, and the caller returns
 *    only when `completed` (acquire) reaches the job's tile count: every tile happens-before the
 *    return, and before the caller writes the next job.
 * The generation wraps after 2^32 jobs; a worker would have to stall between loading the state
 * and its compare-and-swap for that many jobs to be fooled. */
#define GEN(s) ((uint32_t)((s) >> 32))
#define TILE(s) ((uint32_t)(s))
#define CLOSED UINT32_MAX /* the tile of a generation whose job is over: beyond any tile count */

/* The two words every tile writes (the claim and the count of tiles done) each have a cache line
 * of their own, apart from the job's fields that every tile reads: on one line, each claim made
 * the other threads miss on the job's fields too, and the count's writes on the claims. Idle
 * workers wait on words of their own, not on the claim word: 15 threads reading the word 7
 * threads claimed on made W4a at 16 threads 2.6x slower than at 8. */
#define WG_CACHE_LINE 64

/* A worker's own line: the generation of the last job that needs it (a job of h helpers stores
 * its generation into workers 0 .. h - 1's, after publishing the state), what it sleeps on, and
 * how many jobs it woke for (wg_pool_worker_wakes, for tests). */
typedef struct wg_worker {
  _Alignas(WG_CACHE_LINE) _Atomic uint32_t gen;
  pthread_cond_t wake;
  atomic_size_t wakes;
} wg_worker;

struct wg_pool {
  _Alignas(WG_CACHE_LINE) _Atomic uint64_t state;
  _Alignas(WG_CACHE_LINE) atomic_size_t completed; /* tiles of the current job that are done */
  /* The current job: written by the caller between closing the old generation and publishing
   * the new one, and read by a worker only after it claimed a tile of the new one. */
  _Alignas(WG_CACHE_LINE) _Atomic uint32_t tiles; /* < CLOSED */
  wg_task_fn fn;
  void* ctx;
  size_t range, tile;
  atomic_int stop; /* read with the state by spinning workers */
  /* set up once, and what the caller alone uses */
  _Alignas(WG_CACHE_LINE) size_t workers; /* threads besides the caller */
  size_t conds;                            /* the workers' condition variables made */
  size_t parallel_threshold;
  pthread_t* threads;
  wg_worker* each; /* one a worker */
  pthread_mutex_t mutex;
  atomic_int busy;       /* a caller is running a job */
  atomic_size_t started; /* workers that have entered worker_main */
};

/* Claims and runs tiles of job `gen` until none is left or the job is no longer current. */
static void run_tiles(wg_pool* pool, uint32_t gen) {
  uint64_t s = atomic_load(&pool->state);
  /* tiles is read after s: a stale s with the next job's tile count fails its compare-and-swap,
   * since that count was written after s's generation was closed. */
  while (GEN(s) == gen && TILE(s) < atomic_load(&pool->tiles)) {
    if (!atomic_compare_exchange_weak(&pool->state, &s, s + 1)) continue; /* s was reloaded */
    size_t start = (size_t)TILE(s) * pool->tile;
    size_t count = pool->range - start < pool->tile ? pool->range - start : pool->tile;
    pool->fn(pool->ctx, start, count);
    atomic_fetch_add(&pool->completed, 1);
    s = atomic_load(&pool->state);
    WG_TEST_HOOK(WG_HOOK_WORKER_RELOADED);
  }
}

static void* worker_main(void* arg) {
  wg_pool* pool = arg;
  wg_worker* w = &pool->each[atomic_fetch_add(&pool->started, 1)]; /* this worker's line */
  uint32_t seen = 0; /* the generation at creation; a job may be posted before we start */
  for (;;) {
    uint32_t now = seen;
    int64_t spin_until = now_ns() + WG_SPIN_NS;
    for (unsigned i = 1; now == seen && !atomic_load(&pool->stop); ++i) {
      now = atomic_load(&w->gen);
      if (i % WG_SPIN_CLOCK_EVERY == 0 && now_ns() > spin_until) break;
    }
    if (now == seen && !atomic_load(&pool->stop)) {
      pthread_mutex_lock(&pool->mutex);
      while ((now = atomic_load(&w->gen)) == seen && !atomic_load(&pool->stop)) pthread_cond_wait(&w->wake, &pool->mutex);
      pthread_mutex_unlock(&pool->mutex);
    }
    if (atomic_load(&pool->stop)) return NULL;
    seen = now;
    atomic_fetch_add_explicit(&w->wakes, 1, memory_order_relaxed);
    /* A job that needs this worker: its tiles, while it is current (a later job that needs it
     * too has stored a later generation, which the next wait sees at once). */
    run_tiles(pool, seen);
    WG_TEST_HOOK(WG_HOOK_WORKER_LEFT);
  }
}

/* Waits (at most a second) until every worker runs. A thread's start-up allocates in the shared
 * heap, and it must happen now, not during a later call whose heap use a caller measures. The
 * pool works without it: the caller never waits for a worker that has not claimed a tile. */
static void wait_until_started(wg_pool* pool) {
  int64_t give_up = now_ns() + 1000000000;
  while (atomic_load(&pool->started) < pool->workers && now_ns() < give_up) {
  }
}

/* Initializes the mutex and the n workers' condition variables; returns 0, with none left, if
 * any fails (they can: EAGAIN, ENOMEM). */
static int init_sync(wg_pool* pool, size_t n) {
  if (INJECTED(WG_FAULT_MUTEX_INIT) || pthread_mutex_init(&pool->mutex, NULL) != 0) return 0;
  for (size_t i = 0; i < n; ++i) {
    if (INJECTED(WG_FAULT_COND_INIT) || pthread_cond_init(&pool->each[i].wake, NULL) != 0) {
      while (i-- > 0) pthread_cond_destroy(&pool->each[i].wake);
      pthread_mutex_destroy(&pool->mutex);
      return 0;
    }
  }
  return 1;
}

wg_status wg_pool_create(size_t threads, wg_pool** out) {
  if (out == NULL) return WG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (threads <= 1) return WG_OK;
  wg_pool* pool = aligned_alloc(WG_CACHE_LINE, sizeof *pool); /* a multiple of its alignment */
  if (pool == NULL) return WG_ERR_OUT_OF_MEMORY;
  memset(pool, 0, sizeof *pool);
  pool->threads = calloc(threads - 1, sizeof *pool->threads);
  pool->each = aligned_alloc(WG_CACHE_LINE, (threads - 1) * sizeof *pool->each); /* a multiple of its alignment */
  if (pool->each) memset(pool->each, 0, (threads - 1) * sizeof *pool->each);
  if (pool->threads == NULL || pool->each == NULL || !init_sync(pool, threads - 1)) {
    free(pool->threads);
    free(pool->each);
    free(pool);
    return WG_ERR_OUT_OF_MEMORY;
  }
  pool->conds = threads - 1;
  pool->parallel_threshold = WG_PARALLEL_MIN_BYTES;
  /* Emscripten builds use PTHREAD_POOL_SIZE_STRICT=2: past the preloaded workers
   * pthread_create fails (instead of deadlocking), and the pool keeps what it got. */
  for (size_t i = 0; i + 1 < threads; ++i) {
    if (pthread_create(&pool->threads[i], NULL, worker_main, pool) != 0) break;
    pool->workers++;
  }
  if (pool->workers == 0) {
    wg_pool_destroy(pool);
    return WG_OK;
  }
  wait_until_started(pool);
  *out = pool;
  return WG_OK;
}

size_t wg_pool_threads(const wg_pool* pool) { return pool ? pool->workers + 1 : 1; }

#ifdef WG_TEST_HOOKS
size_t wg_pool_worker_wakes(const wg_pool* pool, size_t worker) {
  return pool && worker < pool->workers ? atomic_load(&pool->each[worker].wakes) : 0;
}
#endif

void wg_pool_set_parallel_threshold(wg_pool* pool, size_t min_bytes) {
  if (pool) pool->parallel_threshold = min_bytes;
}

size_t wg_pool_parallel_threshold(const wg_pool* pool) {
  return pool ? pool->parallel_threshold : SIZE_MAX;
}

void wg_pool_destroy(wg_pool* pool) {
  if (pool == NULL) return;
  pthread_mutex_lock(&pool->mutex);
  atomic_store(&pool->stop, 1);
  for (size_t i = 0; i < pool->workers; ++i) pthread_cond_signal(&pool->each[i].wake);
  pthread_mutex_unlock(&pool->mutex);
  for (size_t i = 0; i < pool->workers; ++i) pthread_join(pool->threads[i], NULL);
  for (size_t i = 0; i < pool->conds; ++i) pthread_cond_destroy(&pool->each[i].wake);
  pthread_mutex_destroy(&pool->mutex);
  free(pool->threads);
  free(pool->each);
  free(pool);
}

/* Writes a job of `tiles` tiles (the caller holds busy) and wakes its threads - 1 helpers;
 * returns its generation. */
static uint32_t publish(wg_pool* pool, wg_task_fn fn, void* ctx, size_t range, size_t tile, size_t tiles, size_t threads) {
  /* Close the previous job's generation before anything of the next job is written. */
  uint32_t old = GEN(atomic_load(&pool->state)), gen = old + 1;
  atomic_store(&pool->state, (uint64_t)old << 32 | CLOSED);
  pool->fn = fn;
  pool->ctx = ctx;
  pool->range = range;
  pool->tile = tile;
  atomic_store(&pool->tiles, (uint32_t)tiles);
  atomic_store(&pool->completed, 0);
  WG_TEST_HOOK(WG_HOOK_CALLER_JOB_WRITTEN);
  pthread_mutex_lock(&pool->mutex);
  atomic_store(&pool->state, (uint64_t)gen << 32);
  /* after the state: a worker that sees gen claims under it; only the job's helpers are woken */
  for (size_t i = 0; i + 1 < threads; ++i) {
    atomic_store(&pool->each[i].gen, gen);
    pthread_cond_signal(&pool->each[i].wake);
  }
  pthread_mutex_unlock(&pool->mutex);
  WG_TEST_HOOK(WG_HOOK_CALLER_PUBLISHED);
  return gen;
}

/* The caller's part of job `gen`: the tiles no one has claimed, then a wait for those that
 * workers claimed (a spin: the browser main thread may not block, and Emscripten would
 * busy-wait there anyway; these are short), then the pool is free. */
static void finish(wg_pool* pool, uint32_t gen) {
  run_tiles(pool, gen);
  uint32_t tiles = atomic_load(&pool->tiles);
  while (atomic_load(&pool->completed) < tiles) {
  }
  atomic_store(&pool->busy, 0);
}

void wg_parallelize_1d(wg_pool* pool, wg_task_fn fn, void* ctx, size_t range, size_t tile, size_t threads) {
  if (tile == 0) tile = 1;
  if (range / tile >= UINT32_MAX) tile = range / (UINT32_MAX - 1) + 1; /* tiles < CLOSED */
  size_t tiles = range / tile + (range % tile != 0);
  if (pool && (threads == 0 || threads > pool->workers + 1)) threads = pool->workers + 1;
  /* One job at a time: a second caller (another thread, or a task calling back into the pool)
   * runs its job on its own thread. */
  if (pool == NULL || tiles <= 1 || threads <= 1 || atomic_exchange(&pool->busy, 1)) {
    run_serial(fn, ctx, range);
    return;
  }
#ifdef WG_TEST_HOOKS
  uint64_t seed = atomic_load(&wg_test_shuffle);
  if (seed) {
    run_shuffled(seed, fn, ctx, range, tile, tiles);
    atomic_store(&pool->busy, 0);
    return;
  }
#endif
  finish(pool, publish(pool, fn, ctx, range, tile, tiles, threads));
}

/* A job of one tile and one helper, whose caller leaves the tile to that helper until the join:
 * the job protocol's own, so no worker can claim it once joined, nor a later job's tile. */
int wg_pool_start(wg_pool* pool, wg_task_fn fn, void* ctx) {
  if (pool == NULL || atomic_exchange(&pool->busy, 1)) return 0;
#ifdef WG_TEST_HOOKS
  if (atomic_load(&wg_test_shuffle)) { /* the shuffled runs are the caller's alone */
    atomic_store(&pool->busy, 0);
    return 0;
  }
#endif
  publish(pool, fn, ctx, 1, 1, 1, 2);
  return 1;
}

void wg_pool_join(wg_pool* pool) { finish(pool, GEN(atomic_load(&pool->state))); }

#endif
