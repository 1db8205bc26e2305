/* The thread pool under hostile conditions (src/parallel.c, built with -DWG_TEST_HOOKS so that
 * the pool calls a hook at the points of its job protocol and can be made to see failures).
 *
 * 0. Creation when pthread_mutex_init or pthread_cond_init fails: an error and no pool (nothing
 *    leaks: LeakSanitizer checks in the ASan build), and the next creation works.
 * 1. A forced interleaving, deterministic: a worker finishes the last tile of job A and stops
 *    right after it reloaded the pool's state; the caller returns from A, writes job B (more
 *    tiles than A), and before it publishes B lets the worker go on with its stale view of A.
 *    The worker must not run any tile of B under A's generation: every tile of B runs once, and
 *    none is still running when the caller returns.
 * 2. A stress: back-to-back wg_take calls forced onto the pool (parallel threshold 0) whose
 *    tile counts alternate 8 and 2, at several thread counts (more threads than cores too),
 *    every output checked row by row against the data; with --delays the hooks add random
 *    short sleeps and yields at the two racy points to widen the windows.
 * 3. Two threads calling into one pool at once: every output right.
 * 4. A job limited to fewer threads than the pool has (a small call: src/runner.c): run by at
 *    most that many threads, the caller included, every tile once; limited to one, by the caller.
 * 5. Idle workers stay asleep: a 16-thread pool runs 10 000 small jobs on 2 helpers (3 threads);
 *    the 13 workers that are not their helpers wake for none of them (each worker counts the
 *    jobs it woke for), and a job on every thread after them wakes them again.
 * 6. A started job (wg_pool_start, wg_pool_join): a worker runs it while the caller goes on (the
 *    caller waits until the job says it runs elsewhere, then lets it end); meanwhile the pool is
 *    the job's: a job that the started one gives the pool, and another thread's, run on their own
 *    thread, and a second start is refused; joined at once, thousands of times, each runs once,
 *    on a worker or (taken by no worker yet) on the caller; after a join the pool takes jobs
 *    and starts again; a NULL pool starts nothing.
 *
 * Usage: test_pool [--threads 2,3,4,8] [--calls N] [--delays] [--no-interleave]
 * Prints one closing line "N passed, N failed"; exits non-zero on any failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "parallel.h"
#include "wasm_gather.h"

static int failures = 0;
static pthread_t main_thread;

/* ---------------------------------------------------------------- 0. creation faults */

static void test_create_faults(void) {
  const wg_test_fault faults[] = {WG_FAULT_MUTEX_INIT, WG_FAULT_COND_INIT};
  const char* names[] = {"pthread_mutex_init", "pthread_cond_init"};
  for (int k = 0; k < 2; ++k) {
    wg_pool* pool = NULL;
    wg_test_fail = faults[k];
    wg_status st = wg_pool_create(3, &pool);
    wg_test_fail = WG_FAULT_NONE;
    printf("pool creation when %s fails: status %d, pool %s\n", names[k], (int)st,
           pool ? "made" : "none");
    CHECK(st == WG_ERR_OUT_OF_MEMORY);
    CHECK(pool == NULL);
    wg_pool_destroy(pool);
  }
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(3, &pool) == WG_OK && wg_pool_threads(pool) == 3);
  wg_pool_destroy(pool);
}

/* ---------------------------------------------------------------- 1. forced interleaving */

enum { TILES_A = 2, TILES_B = 8 };

typedef struct tile_record {
  atomic_int runs[TILES_B];
  atomic_int in_flight; /* tiles being run right now */
  atomic_int total;     /* tiles run so far */
} tile_record;

static void record_tile(void* ctx, size_t start, size_t count) {
  tile_record* r = ctx;
  atomic_fetch_add(&r->in_flight, 1);
  for (size_t i = start; i < start + count; ++i) atomic_fetch_add(&r->runs[i], 1);
  usleep(2000); /* long enough for a caller that does not wait for this tile to return first */
  atomic_fetch_add(&r->total, 1);
  atomic_fetch_sub(&r->in_flight, 1);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int phase;          /* 0 off, 1 job A, 2 job B */
static int worker_holding; /* the worker stopped after A's last tile */
static int released;       /* the caller let it go on */
static int worker_left;    /* it stopped claiming tiles */
static tile_record* job_a;

/* Waits (at most 2 s) until *flag is set; returns 0 on time-out. Call with `lock` held. */
static int wait_for(const int* flag) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 2;
  while (!*flag) {
    if (pthread_cond_timedwait(&changed, &lock, &until) == ETIMEDOUT) return *flag;
  }
  return 1;
}

static void set_flag(int* flag) {
  *flag = 1;
  pthread_cond_broadcast(&changed);
}

static void interleave_hook(wg_test_hook_point point) {
  int caller = pthread_equal(pthread_self(), main_thread);
  pthread_mutex_lock(&lock);
  if (phase == 1 && caller && point == WG_HOOK_CALLER_PUBLISHED) {
    /* let the worker take every tile of A and stop after the last one */
    if (!wait_for(&worker_holding)) fprintf(stderr, "interleave: the worker did not take job A\n");
  } else if (phase == 1 && !caller && point == WG_HOOK_WORKER_RELOADED &&
             atomic_load(&job_a->total) == TILES_A) {
    set_flag(&worker_holding);
    wait_for(&released); /* holding the state it loaded after A's last tile */
  } else if (phase == 2 && caller && point == WG_HOOK_CALLER_JOB_WRITTEN) {
    set_flag(&released);
    if (!wait_for(&worker_left)) fprintf(stderr, "interleave: the worker did not stop\n");
  } else if (phase == 2 && !caller && point == WG_HOOK_WORKER_LEFT) {
    set_flag(&worker_left);
  }
  pthread_mutex_unlock(&lock);
}

static void test_forced_interleaving(void) {
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(2, &pool) == WG_OK && wg_pool_threads(pool) == 2);
  static tile_record a, b;
  job_a = &a;
  wg_test_hook = interleave_hook;
  phase = 1;
  wg_parallelize_1d(pool, record_tile, &a, TILES_A, 1, 0);
  CHECK(worker_holding);
  int a_in_flight = atomic_load(&a.in_flight);
  pthread_mutex_lock(&lock);
  phase = 2;
  pthread_mutex_unlock(&lock);
  wg_parallelize_1d(pool, record_tile, &b, TILES_B, 1, 0);
  int b_in_flight = atomic_load(&b.in_flight);
  wg_test_hook = NULL;
  pthread_mutex_lock(&lock);
  set_flag(&released); /* in case the interleaving did not happen */
  pthread_mutex_unlock(&lock);
  wg_pool_destroy(pool);

  int wrong = 0;
  for (int i = 0; i < TILES_A; ++i) wrong += atomic_load(&a.runs[i]) != 1;
  for (int i = 0; i < TILES_B; ++i) wrong += atomic_load(&b.runs[i]) != 1;
  printf("forced interleaving: job A in flight at return %d, job B in flight at return %d, "
         "tiles not run exactly once %d; B's runs per tile:", a_in_flight, b_in_flight, wrong);
  for (int i = 0; i < TILES_B; ++i) printf(" %d", atomic_load(&b.runs[i]));
  printf("\n");
  CHECK(a_in_flight == 0 && b_in_flight == 0);
  CHECK(wrong == 0);
}

/* ---------------------------------------------------------------- 2. stress */

static _Thread_local uint64_t rng = 0;
static uint64_t next_rand(void) { /* xorshift64, seeded per thread */
  if (rng == 0) rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)&rng;
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Random short delays at the two points where the old protocol raced. */
static void delay_hook(wg_test_hook_point point) {
  if (point != WG_HOOK_WORKER_RELOADED && point != WG_HOOK_CALLER_JOB_WRITTEN) return;
  uint64_t r = next_rand() % 8;
  if (r == 0) usleep(1 + (useconds_t)(next_rand() % 50));
  else if (r == 1) sched_yield();
}

enum { ROWS = 64, COLS = 4096 }; /* rows of 16 KiB: one row per tile (WG_TILE_BYTES) */

static float params[ROWS * COLS];

/* Runs `calls` back-to-back takes on `pool`, each output checked; returns how many were wrong. */
static size_t run_calls(wg_pool* pool, size_t calls) {
  float* out = malloc(8 * COLS * sizeof(float));
  const size_t pshape[] = {ROWS, COLS};
  size_t wrong = 0;
  for (size_t call = 0; call < calls; ++call) {
    size_t n = call % 2 ? 2 : 8; /* tiles per call alternate 8 and 2 */
    int32_t idx[8];
    for (size_t i = 0; i < n; ++i) idx[i] = (int32_t)(next_rand() % (2 * ROWS)) - ROWS;
    memset(out, 0xAB, n * COLS * sizeof(float));
    const size_t ishape[] = {n};
    wg_status st = wg_take(pool, params, pshape, 2, idx, WG_INDEX_I32, ishape, 1, 0, 0,
                           sizeof(float), WG_OOB_ERROR, out, NULL);
    int ok = st == WG_OK;
    for (size_t i = 0; ok && i < n; ++i) {
      size_t row = (size_t)(idx[i] < 0 ? idx[i] + ROWS : idx[i]);
      ok = memcmp(out + i * COLS, params + row * COLS, COLS * sizeof(float)) == 0;
    }
    wrong += !ok;
  }
  free(out);
  return wrong;
}

static wg_pool* stress_pool(size_t threads) {
  for (size_t i = 0; i < ROWS * COLS; ++i) params[i] = (float)i;
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(threads, &pool) == WG_OK);
  CHECK(wg_pool_threads(pool) == threads);
  wg_pool_set_parallel_threshold(pool, 0);
  return pool;
}

/* ---------------------------------------------------------------- 3. two callers */

typedef struct second_caller {
  wg_pool* pool;
  size_t calls, wrong;
} second_caller;

static void* second_caller_main(void* arg) {
  second_caller* c = arg;
  c->wrong = run_calls(c->pool, c->calls);
  return NULL;
}

/* Two threads calling into one pool at once (not what the binding does, but the C API must
 * survive it): one of them runs each job alone; every output stays right. */
static void test_two_callers(size_t calls) {
  wg_pool* pool = stress_pool(3);
  second_caller c = {pool, calls, 0};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, second_caller_main, &c) == 0);
  size_t wrong = run_calls(pool, calls);
  pthread_join(t, NULL);
  wg_pool_destroy(pool);
  printf("two callers on one pool of 3 threads, %zu calls each: %zu and %zu wrong outputs\n", calls,
         wrong, c.wrong);
  CHECK(wrong == 0 && c.wrong == 0);
}

/* ---------------------------------------------------------------- 4. fewer threads */

enum { LIMITED_TILES = 16 };
typedef struct limited_run {
  atomic_int runs[LIMITED_TILES];
  pthread_mutex_t lock;
  pthread_t seen[LIMITED_TILES];
  size_t nseen;
} limited_run;

static void limited_tile(void* ctx, size_t start, size_t count) {
  limited_run* r = ctx;
  pthread_mutex_lock(&r->lock);
  size_t k = 0;
  while (k < r->nseen && !pthread_equal(r->seen[k], pthread_self())) ++k;
  if (k == r->nseen) r->seen[r->nseen++] = pthread_self();
  pthread_mutex_unlock(&r->lock);
  for (size_t i = start; i < start + count; ++i) atomic_fetch_add(&r->runs[i], 1);
  usleep(1000); /* long enough for every worker to wake and look at the job */
}

static void test_fewer_threads(void) {
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(4, &pool) == WG_OK && wg_pool_threads(pool) == 4);
  for (size_t threads = 1; threads <= 3; ++threads) {
    for (int rep = 0; rep < 20; ++rep) {
      limited_run r = {.nseen = 0};
      pthread_mutex_init(&r.lock, NULL);
      wg_parallelize_1d(pool, limited_tile, &r, LIMITED_TILES, 1, threads);
      for (size_t i = 0; i < LIMITED_TILES; ++i) CHECK(atomic_load(&r.runs[i]) == 1);
      CHECK(r.nseen >= 1 && r.nseen <= threads);
      if (threads == 1) CHECK(pthread_equal(r.seen[0], pthread_self()));
      pthread_mutex_destroy(&r.lock);
    }
  }
  wg_pool_destroy(pool);
}

/* ---------------------------------------------------------------- 5. idle workers */

static void small_tile(void* ctx, size_t start, size_t count) {
  (void)start;
  atomic_fetch_add((atomic_size_t*)ctx, count);
}

static void test_idle_workers(void) {
  enum { THREADS = 16, JOBS = 10000, HELPERS = 2 };
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(THREADS, &pool) == WG_OK && wg_pool_threads(pool) == THREADS);
  atomic_size_t runs = 0;
  for (int j = 0; j < JOBS; ++j) wg_parallelize_1d(pool, small_tile, &runs, 64, 1, HELPERS + 1);
  size_t helper_wakes = 0, idle_wakes = 0;
  for (size_t w = 0; w < THREADS - 1; ++w) *(w < HELPERS ? &helper_wakes : &idle_wakes) += wg_pool_worker_wakes(pool, w);
  printf("idle workers: %d jobs on %d helpers of a %d-thread pool: the helpers woke %zu times, "
         "the other %d workers %zu times\n", JOBS, HELPERS, THREADS, helper_wakes, THREADS - 1 - HELPERS, idle_wakes);
  CHECK(atomic_load(&runs) == (size_t)JOBS * 64);
  CHECK(idle_wakes == 0);
  /* a job on every thread wakes them all (the last worker may come late: the caller waits for
   * claimed tiles only, so a tile that sleeps leaves the others time to claim) */
  limited_run r = {.nseen = 0};
  pthread_mutex_init(&r.lock, NULL);
  wg_parallelize_1d(pool, limited_tile, &r, LIMITED_TILES, 1, THREADS);
  for (size_t i = 0; i < LIMITED_TILES; ++i) CHECK(atomic_load(&r.runs[i]) == 1);
  pthread_mutex_destroy(&r.lock);
  wg_pool_destroy(pool);
}

/* ---------------------------------------------------------------- 6. a started job */

typedef struct started_job {
  wg_pool* pool;
  atomic_int running, release, runs;
  pthread_t ran_on;
  int restart;          /* wg_pool_start from inside the job: refused (0) */
  limited_run nested;   /* a job the started one gives the pool */
} started_job;

static void started_fn(void* ctx, size_t start, size_t count) {
  started_job* j = ctx;
  CHECK(start == 0 && count == 1);
  j->ran_on = pthread_self();
  atomic_fetch_add(&j->runs, 1);
  atomic_store(&j->running, 1);
  while (!atomic_load(&j->release)) sched_yield();
  j->restart = wg_pool_start(j->pool, small_tile, NULL);
  wg_parallelize_1d(j->pool, limited_tile, &j->nested, LIMITED_TILES, 1, 0);
}

static void count_fn(void* ctx, size_t start, size_t count) {
  (void)start;
  atomic_fetch_add((atomic_size_t*)ctx, count);
}

static void test_started_job(void) {
  CHECK(wg_pool_start(NULL, count_fn, NULL) == 0);
  wg_pool* pool = NULL;
  CHECK(wg_pool_create(3, &pool) == WG_OK && wg_pool_threads(pool) == 3);
  started_job j = {.pool = pool};
  pthread_mutex_init(&j.nested.lock, NULL);
  CHECK(wg_pool_start(pool, started_fn, &j) == 1);
  /* the caller goes on while a worker runs the job (at most 10 s: a worker must take it) */
  for (int i = 0; i < 10000 && !atomic_load(&j.running); ++i) usleep(1000);
  CHECK(atomic_load(&j.running));
  CHECK(!pthread_equal(j.ran_on, pthread_self()));
  /* the pool is the started job's: another thread's job runs on that thread alone */
  limited_run other = {.nseen = 0};
  pthread_mutex_init(&other.lock, NULL);
  wg_parallelize_1d(pool, limited_tile, &other, LIMITED_TILES, 1, 0);
  CHECK(other.nseen == 1 && pthread_equal(other.seen[0], pthread_self()));
  for (size_t i = 0; i < LIMITED_TILES; ++i) CHECK(atomic_load(&other.runs[i]) == 1);
  atomic_store(&j.release, 1);
  wg_pool_join(pool);
  CHECK(atomic_load(&j.runs) == 1);
  CHECK(j.restart == 0);
  CHECK(j.nested.nseen == 1 && pthread_equal(j.nested.seen[0], j.ran_on));
  for (size_t i = 0; i < LIMITED_TILES; ++i) CHECK(atomic_load(&j.nested.runs[i]) == 1);
  /* joined at once: each runs once, wherever it ran */
  enum { STARTS = 5000 };
  atomic_size_t runs = 0;
  for (int k = 0; k < STARTS; ++k) {
    CHECK(wg_pool_start(pool, count_fn, &runs) == 1);
    wg_pool_join(pool);
  }
  CHECK(atomic_load(&runs) == STARTS);
  /* the pool is free again after each join: a job the caller waits on while its tile sleeps is
   * one a worker joins (as in 5) */
  limited_run after = {.nseen = 0};
  pthread_mutex_init(&after.lock, NULL);
  wg_parallelize_1d(pool, limited_tile, &after, LIMITED_TILES, 1, 0);
  for (size_t i = 0; i < LIMITED_TILES; ++i) CHECK(atomic_load(&after.runs[i]) == 1);
  CHECK(wg_pool_start(pool, count_fn, &runs) == 1);
  wg_pool_join(pool);
  CHECK(atomic_load(&runs) == STARTS + 1);
  printf("started jobs: one run by a worker while the caller went on, %d joined at once, each run once\n", STARTS);
  pthread_mutex_destroy(&after.lock);
  pthread_mutex_destroy(&other.lock);
  pthread_mutex_destroy(&j.nested.lock);
  wg_pool_destroy(pool);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  main_thread = pthread_self();
  size_t thread_counts[16] = {2, 3, 4, 8}, n_counts = 4, calls = 20000;
  int delays = 0, interleave = 1;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      n_counts = 0;
      for (char* t = strtok(argv[++i], ","); t && n_counts < 16; t = strtok(NULL, ","))
        thread_counts[n_counts++] = strtoul(t, NULL, 10);
    } else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
      calls = strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "--delays")) {
      delays = 1;
    } else if (!strcmp(argv[i], "--no-interleave")) {
      interleave = 0;
    } else {
      fprintf(stderr, "usage: %s [--threads 2,3,4,8] [--calls N] [--delays] [--no-interleave]\n",
              argv[0]);
      return 2;
    }
  }
  test_create_faults();
  if (interleave) test_forced_interleaving();
  wg_test_hook = delays ? delay_hook : NULL;
  for (size_t k = 0; k < n_counts; ++k) {
    double t0 = now_s();
    wg_pool* pool = stress_pool(thread_counts[k]);
    size_t wrong = run_calls(pool, calls);
    wg_pool_destroy(pool);
    printf("stress: %zu threads, %zu calls%s: %zu wrong outputs (%.1f s)\n", thread_counts[k],
           calls, delays ? " with delays" : "", wrong, now_s() - t0);
    fflush(stdout);
    CHECK(wrong == 0);
  }
  wg_test_hook = NULL;
  test_two_callers(calls / 4);
  test_fewer_threads();
  test_idle_workers();
  test_started_job();
  printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures != 0;
}
