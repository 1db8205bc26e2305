/* The call record (its types: src/record.h) filled and run: one call of any op. The JS binding
 * fills it in wasm memory (js/call.mjs), the public C API on its stack; either
 * way the engine plans it (wg_call_shape: the output shape, and the plan kept in the record) and
 * runs it (wg_call_run). */
#ifndef WG_CALL_H
#define WG_CALL_H

#include "record.h"

/* Validates the call and plans it: writes the output's shape and rank into tensors[out], the
 * offsets mode's block count into tensors[offsets] (shape [n]; 0 for an op without it) and the
 * workspace the run needs into tensors[workspace] (shape [bytes]). The plan is kept for the run. */
wg_status wg_call_shape(wg_call* c);
/* Runs the call on the pool (NULL: on the caller) with the plan the shape query made for it, or
 * plans it first when there is none; the tensors' addresses are read now. A plan that counts (the
 * masks' ops: src/stage_mask.h) writes the true output shape into tensors[out], and the offsets its
 * count makes (those its offsets mode writes) into tensors[offsets]'s shape; given neither an
 * output nor offsets, it only counts, and the next run writes from the counts it kept. */
wg_status wg_call_run(wg_pool* pool, wg_call* c);
/* Runs the call again with the plan its shape query made, and keeps that plan for the next run: a
 * prepared call (js/prepared.mjs), whose record nothing else writes and whose tensors' shapes and
 * attributes never change, only its addresses' contents. Without a plan, WG_ERR_INVALID_ARGUMENT. */
wg_status wg_call_rerun(wg_pool* pool, wg_call* c);
/* wg_call_rerun begun on one of the pool's workers, alone, so that the caller can do other work
 * meanwhile (JS filling a new array with the data while the offsets it then writes are resolved),
 * and finished: wg_call_finish returns when the run is done, with its status. Where the pool has
 * no worker free (NULL, busy), wg_call_start runs the call itself, on the pool. The caller uses
 * neither the pool nor the record in between, and finishes every start. */
void wg_call_start(wg_pool* pool, wg_call* c);
wg_status wg_call_finish(wg_pool* pool, wg_call* c);

/* For the public API's wrappers (src/op_<name>.c): a record for op with every attribute at its
 * default, and a tensor set into it (its shape copied; a NULL shape or a rank above WG_MAX_RANK
 * fails here, naming the tensor). */
void wg_call_init(wg_call* c, int32_t op);
wg_status wg_call_tensor(wg_call* c, int role, const void* ptr, int32_t dtype, const size_t* shape,
                         size_t rank);
/* The indexed ops' public arguments (data of elem_size bytes an element, indices of index_type,
 * the policies, out) into a record for op, attributes at their defaults. */
wg_status wg_call_indexed(wg_call* c, int32_t op, const void* data, size_t elem_size,
                          const size_t* data_shape, size_t data_rank, const void* indices,
                          wg_index_type index_type, const size_t* index_shape, size_t index_rank,
                          wg_oob_mode mode, wg_negative_mode negative, void* out);
/* The scatters' public arguments (src/wasm_gather.h: data, indices and updates, desc's element
 * type and policies, out) into a record for op, its other attributes at their defaults. */
wg_status wg_call_scatter(wg_call* c, int32_t op, const void* data, const size_t* data_shape,
                          size_t data_rank, const void* indices, wg_index_type index_type,
                          const size_t* index_shape, size_t index_rank, const void* updates,
                          const size_t* updates_shape, size_t updates_rank,
                          const wg_scatter_desc* desc, void* out);
/* The fused gather-reduce's public arguments (data and desc: src/wasm_gather.h, out) into a
 * record for op, its other attributes at their defaults (the indices are the caller's). */
wg_status wg_call_bag(wg_call* c, int32_t op, const void* data, const size_t* data_shape,
                      size_t data_rank, const wg_bag_desc* desc, void* out);
/* A wrapper's failure before the call: the record's error copied out, and st. */
wg_status wg_call_failed(const wg_call* c, wg_status st, wg_error_info* err);
/* The shape query for the public API: copies the output shape out. */
wg_status wg_call_shape_out(wg_call* c, size_t* out_shape, size_t* out_rank, wg_error_info* err);
/* The run for the public API: the workspace, if the plan asks for one, from malloc. */
wg_status wg_call_run_api(wg_pool* pool, wg_call* c, wg_error_info* err);

#endif
