// Types of the ES module entry (js/index.mjs): the same API as the CommonJS entry's, whose
// declarations (index.d.cts) are the one copy.
export * from './index.cjs';
