/* Helpers only the JS binding needs: a heap probe for leak checks and per-call peak heap. */
#include <malloc.h>
#include <stddef.h>

#include "wasm_gather.h"

/* Bytes of the malloc heap currently allocated. */
size_t wg_heap_in_use(void) { return mallinfo().uordblks; }
