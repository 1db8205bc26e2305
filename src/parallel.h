/* parallelize_1d: run fn over [0, range) in tiles, on a wg_pool or (pool == NULL) on the caller. */
#ifndef WG_PARALLEL_H
#define WG_PARALLEL_H

#include "wasm_gather.h"

/* fn(ctx, start, count) handles items [start, start + count). Tiles are handed out dynamically;
 * the caller thread takes tiles too and returns when every tile is done. */
typedef void (*wg_task_fn)(void* ctx, size_t start, size_t count);

void wg_parallelize_1d(wg_pool* pool, wg_task_fn fn, void* ctx, size_t range, size_t tile);

#endif
