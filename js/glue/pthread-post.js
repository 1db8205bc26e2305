// --post-js for the pthreads build. Emscripten 3.1.6's pool workers keep Node alive forever
// (idle or blocked on a futex), so a script that uses the library would never exit. Once a
// worker has reported that it loaded, unref() it; unref before loading makes Node exit before
// the module is ready, and its 'message' listener is added before this, so it stays unref'd.
if (typeof PThread !== 'undefined' && PThread.loadWasmModuleToWorker) {
  var wgLoadWasmModuleToWorker = PThread.loadWasmModuleToWorker;
  PThread.loadWasmModuleToWorker = function (worker, onFinishedLoading) {
    return wgLoadWasmModuleToWorker(worker, function (w) {
      if (typeof w.unref === 'function') w.unref();
      if (onFinishedLoading) onFinishedLoading(w);
    });
  };
}

// dispose(): the binding stops the C pool first, then ends the (now idle) workers here.
Module['wgTerminateThreads'] = function () {
  if (typeof PThread !== 'undefined') PThread.terminateAllThreads();
};
