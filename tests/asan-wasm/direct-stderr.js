// --js-library of the test-only AddressSanitizer build (CMake WG_WASM_ASAN; Node glues only).
// ASan prints its report with write(2), which is WASI's fd_write. In a pthreads build Emscripten
// 3.1.6 runs fd_write on the main thread only (a worker's call is proxied there and waits), and
// the pool's caller spins on the main thread until the worker's tile is done (src/parallel.c),
// so a report from a pool worker would wait forever and never be printed. This fd_write writes
// from whatever thread calls it, straight to the process's file descriptor (Node's
// fs.writeSync; the worker glue makes require global). Library overrides:
// https://emscripten.org/docs/porting/connecting_cpp_and_javascript/Interacting-with-code.html#implement-a-c-api-in-javascript
mergeInto(LibraryManager.library, {
  fd_write__proxy: false, // run where it is called, not on the main thread
  fd_write: function (fd, iov, iovcnt, pnum) {
    var num = 0;
    for (var i = 0; i < iovcnt; i++, iov += 8) { // struct iovec { void* base; size_t len; }
      var ptr = HEAPU32[iov >> 2], len = HEAPU32[(iov + 4) >> 2];
      require('fs').writeSync(fd, HEAPU8.slice(ptr, ptr + len)); // a copy: memory may be shared
      num += len;
    }
    HEAPU32[pnum >> 2] = num;
    return 0;
  },
});
