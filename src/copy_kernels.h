/* Block copy kernels, named by the width they move (XNNPACK style). Each copies n blocks of
 * block_bytes from src + off[j] to dst + j * block_bytes; off[j] == WG_ZERO_BLOCK writes zeros. */
#ifndef WG_COPY_KERNELS_H
#define WG_COPY_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef void (*wg_copy_fn)(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n,
                           size_t block_bytes);

void wg_copy_x8(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_x16(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_x32(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_x64(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_v128(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_memcpy(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);

/* The one place where a kernel is picked, once per call, from the block size in bytes. */
wg_copy_fn wg_pick_copy(size_t block_bytes);

#endif
