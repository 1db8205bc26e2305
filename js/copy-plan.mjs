// A copy plan executed in JS (each byte moved once). C resolves the call into its output blocks'
// sources (the call record's offsets tensor, src/stage_copy.h), with the same rules and errors as a run; the
// bytes then move here, from where they are (the caller's data array, or a resident tensor's
// wasm memory) into where they go (the caller's output array), instead of copying the whole data
// into wasm memory and the output out of it.
//
// When: see choosePath (the cost model) and docs/architecture.md, "Where the bytes move".

/** C's WG_ZERO_BLOCK (SIZE_MAX of wasm32) as it reads in a Uint32Array: a block of zeros. */
export const ZERO_BLOCK = 0xffffffff;
// (The loops below read it into a local first: V8 reloads a module's exported binding at each
// read, a fifth of a 1M-row loop's time.)

// Blocks up to this many words are copied by a loop, eight words a step; longer ones by
// TypedArray.set of a subarray, whose fixed cost (making the subarray: 100-150 ns in Node 20)
// the loop's time matches near 90 words (bench/row-copy.mjs; a loop of one word a step costs twice
// the loop's, and a view made by the constructor a fifth more than subarray()).
export const LOOP_WORDS = 88;

/** A view of `bytes` bytes of buffer from byteOffset, in elements of `width` bytes (1, 2 or 4). */
export function wordView(buffer, byteOffset, bytes, width) {
  const T = width === 4 ? Uint32Array : width === 2 ? Uint16Array : Uint8Array;
  return new T(buffer, byteOffset, bytes / width);
}

// A view of the same bytes as `bytes` (a Uint8Array) with elements of `width` bytes.
const wordsOf = (bytes, width) => wordView(bytes.buffer, bytes.byteOffset, bytes.byteLength, width);

/**
 * Copies the n blocks of bb bytes that offsets (a Uint32Array: byte offsets into src, or
 * ZERO_BLOCK) name from src into dst, one after another; src and dst are Uint8Arrays that do not
 * overlap; every offset is a multiple of elemSize. Zero blocks are written only when zeroed is
 * false (a fresh array is zeros already).
 * Bitwise: elements move as integers, never as floats (NaN payloads stay).
 */
export function executePlan(offsets, n, src, dst, bb, elemSize, zeroed) {
  const c = copierOf(src, dst.byteOffset, bb, elemSize);
  copyBlocks(offsets, n, c.words, wordsOf(dst, c.width), bb, c.width, zeroed);
}

/**
 * executePlan's copies between word views made beforehand (s, d: of width-byte words: copierOf's
 * source, wordView's destination; a prepared call makes its source's once), or between arrays of
 * one TypedArray type of width-byte elements where copiesBySet(bb, width).
 */
export function copyBlocks(offsets, n, s, d, bb, width, zeroed) {
  const none = ZERO_BLOCK;
  const w = bb / width; // words per block
  const shift = 31 - Math.clz32(width); // log2: offsets are in bytes
  if (w === 1) {
    for (let j = 0; j < n; j++) {
      const o = offsets[j];
      if (o !== none) d[j] = s[o >>> shift];
      else if (!zeroed) d[j] = 0;
    }
  } else if (w <= LOOP_WORDS) {
    for (let j = 0, at = 0; j < n; j++, at += w) {
      const o = offsets[j];
      if (o !== none) moveWords(d, at, s, o >>> shift, w);
      else if (!zeroed) {
        d.fill(0, at, at + w);
      }
    }
  } else {
    // Blocks that follow one another in s (a run of indices i, i + 1, ...: the rows a mask keeps
    // in a padded batch, a slice) move by one set: the set's fixed cost is paid once a run.
    for (let j = 0, at = 0; j < n;) {
      const o = offsets[j];
      if (o !== none) {
        let end = j + 1;
        while (end < n && offsets[end] === o + (end - j) * bb && offsets[end] !== none) end++;
        const from = o >>> shift, words = (end - j) * w;
        d.set(s.subarray(from, from + words), at);
        at += words;
        j = end;
      } else {
        if (!zeroed) d.fill(0, at, at + w);
        at += w;
        j++;
      }
    }
  }
}

// Copies w words from s[from] to d[at] (word views of one width), eight a step: a loop of one a
// step runs at about half the speed in Node 20.
function moveWords(d, at, s, from, w) {
  const end = at + w, end8 = end - 7;
  for (; at < end8; at += 8, from += 8) {
    d[at] = s[from]; d[at + 1] = s[from + 1]; d[at + 2] = s[from + 2]; d[at + 3] = s[from + 3];
    d[at + 4] = s[from + 4]; d[at + 5] = s[from + 5]; d[at + 6] = s[from + 6]; d[at + 7] = s[from + 7];
  }
  for (; at < end; at++, from++) d[at] = s[from];
}

/**
 * Whether copyBlocks moves blocks of bb bytes in elements of `width` bytes by TypedArray.set
 * (longer than its loop's). Such a copy may be between views of one TypedArray type, floats too: set
 * between arrays of one type keeps every bit (ECMA-262, SetTypedArrayFromTypedArray: "preserves
 * the bit-level encoding"), so no integer views need be made.
 */
export const copiesBySet = (bb, width) => bb / width > LOOP_WORDS;

// The widest word that divides the element (so every offset), the block and both arrays' alignment.
function wordWidth(src, dst, bb, elemSize) {
  return widthAt(src.byteOffset, dst.byteOffset, bb, elemSize);
}
function widthAt(srcOffset, dstOffset, bb, elemSize) {
  let width = Math.min(4, elemSize);
  while (width > 1 && (bb % width || srcOffset % width || dstOffset % width)) width >>= 1;
  return width;
}

/**
 * For copies from src (a Uint8Array) in blocks of bb bytes of elemSize-byte elements into arrays
 * at byte offset dstOffset: { width, words (src's view in words of width bytes) }, for copyBlocks.
 */
export function copierOf(src, dstOffset, bb, elemSize) {
  const width = widthAt(src.byteOffset, dstOffset, bb, elemSize);
  return { width, words: wordsOf(src, width) };
}

/**
 * The scatters' plan (a plain write, src/stage_scatter.h's offsets mode): row j of src (rows of
 * bb bytes, one after another) written to row rows[j] of dst (a Uint32Array of row numbers, or
 * ZERO_BLOCK: dropped), in order, so that the last write to a row wins. src and dst are
 * Uint8Arrays that do not overlap. Bitwise, as executePlan.
 */
export function executeScatterPlan(rows, n, src, dst, bb, elemSize) {
  const none = ZERO_BLOCK;
  const width = wordWidth(src, dst, bb, elemSize);
  const s = wordsOf(src, width), d = wordsOf(dst, width);
  const w = bb / width; // words per row
  if (w === 1 && d.length < none) {
    // Rows of one word, eight a step, none tested: a dropped row's ZERO_BLOCK lies past d's end,
    // and a store past a typed array's end does nothing (ECMA-262, TypedArraySetElement). A third
    // faster than a loop that tests each row (1M rows of M3: 3.5 against 5.0 ms).
    let j = 0;
    for (const end8 = n - 7; j < end8; j += 8) {
      d[rows[j]] = s[j]; d[rows[j + 1]] = s[j + 1]; d[rows[j + 2]] = s[j + 2]; d[rows[j + 3]] = s[j + 3];
      d[rows[j + 4]] = s[j + 4]; d[rows[j + 5]] = s[j + 5]; d[rows[j + 6]] = s[j + 6]; d[rows[j + 7]] = s[j + 7];
    }
    for (; j < n; j++) d[rows[j]] = s[j];
  } else if (w <= LOOP_WORDS) { // (one-word rows too, where d could reach index ZERO_BLOCK)
    for (let j = 0, at = 0; j < n; j++, at += w) {
      const r = rows[j];
      if (r !== none) moveWords(d, r * w, s, at, w);
    }
  } else {
    for (let j = 0, at = 0; j < n; j++, at += w) {
      const r = rows[j];
      if (r !== none) d.set(s.subarray(at, at + w), r * w);
    }
  }
}

/**
 * The scatters' 'add' resolved by C and executed in JS, for float32 and int32 only: row j of src (w
 * elements a row) added into row rows[j] of dst (ZERO_BLOCK: dropped), element by element, in
 * order; src and dst both Float32Arrays or both Int32Arrays. The same bits as the C kernels:
 * JS adds two float32 values in a double, and the store rounds that to float32, which gives their
 * float32 sum (a double has more than 2 * 24 + 2 bits: S. A. Figueroa, "When is double rounding
 * innocuous?", SIGNUM Newsletter 30(3), 1995); an Int32Array store wraps the sum as two's complement.
 */
export function addScatterPlan(rows, n, src, dst, w) {
  const none = ZERO_BLOCK;
  for (let j = 0, at = 0; j < n; j++, at += w) {
    const r = rows[j];
    if (r === none) continue;
    for (let k = 0, to = r * w; k < w; k++) dst[to + k] += src[at + k];
  }
}

/** Whether two byte ranges (Uint8Arrays, or views) share memory. */
export function overlaps(a, b) {
  if (a.buffer !== b.buffer) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

// The cost model's constants, in ns, measured here by bench/copy-cost.mjs (the median of three
// runs of it, 2026-11-23, simd-threaded at 2 threads, 2 shared cores): per output block of
// blockBytes[i] bytes, a one-shot call that gathers random rows of a JS array of up to 32 MiB into a new
// array, what the kernel path costs besides copying the data in (the indices in, the kernel, the
// output out) and what the JS path costs (the indices in, C resolving the plan, executePlan); and
// per byte, copying the data into wasm memory. JS reads a random element of a table that is not
// in cache for about 8-40 ns where the kernel overlaps those misses (1-4 ns), so JS wins only by
// not copying the data in. (On the W workloads this picks the faster path of each, measured with
// both forced: JS for W1, W2, W4a, W5; the kernel for W3, W4b.)
export const COSTS = {
  blockBytes: [4, 16, 64, 256, 1024, 4096, 16384],
  kernelPerBlock: [1.33, 13.12, 19.68, 38.96, 104.7, 364, 1167],
  jsPerBlock: [8.55, 71.85, 172.1, 139.7, 161.4, 398.7, 1258],
  copyInPerByte: 0.064,
  // The scatters' plain writes, per update row of blockBytes[i] (bench/scatter-copy-cost.mjs,
  // 2026-11-25, simd-threaded at 2 threads): what each path costs besides copying the data.
  scatterKernelPerRow: [2.47, 9.7, 15.56, 39.38, 115.47, 572.74, 1933.52],
  scatterJsPerRow: [4.72, 11.62, 35.34, 97.55, 233.73, 503.23, 1436.28],
};

/**
 * A per-block cost at block size bb (of one of COSTS's tables): interpolated between the measured
 * sizes on a log scale, and beyond the largest in proportion to the bytes.
 */
export function perBlock(table, bb) {
  const sizes = COSTS.blockBytes;
  const last = sizes.length - 1;
  if (bb >= sizes[last]) return table[last] * (bb / sizes[last]);
  if (bb <= sizes[0]) return table[0];
  let i = 0;
  while (sizes[i + 1] < bb) i++;
  const f = Math.log(bb / sizes[i]) / Math.log(sizes[i + 1] / sizes[i]);
  return table[i] + f * (table[i + 1] - table[i]);
}

let forced = null;
/** How many calls each path served when both could (tests check that forcing took). */
export const pathCounts = { kernel: 0, js: 0 };
/** Tests only: 'kernel' or 'js' forces that path wherever both can serve a call; null: the model. */
export function forcePath(path) { forced = path; }

// The model's tables for each kind of plan: the gathers' blocks copied out of the data,
// the scatters' rows written into a copy of it.
const TABLES = {
  copy: { kernel: COSTS.kernelPerBlock, js: COSTS.jsPerBlock },
  write: { kernel: COSTS.scatterKernelPerRow, js: COSTS.scatterJsPerRow },
};

/**
 * Which path serves a call: 'kernel' (the data in wasm memory, the C kernel, the output copied
 * out) or 'js' (C resolves the plan, JS moves the bytes: runPlanInJs and runScatterInJs of
 * js/call.mjs). t: the call's tensor descriptors; kind: 'copy' (the gathers: n blocks of the output,
 * of blockBytes together) or 'write' (the scatters' plain writes: n update rows of blockBytes
 * together, written into a copy of the data). 'js' can serve a call whose plan C offers (n > 0),
 * whose data is the caller's array (one-shot: the kernel path copies it in whole) and whose
 * output is a JS array: new, or an opts.out that shares no memory with wasm memory (where the
 * plan is), with the data or with the updates (which JS reads as it writes). From a resident
 * table into a JS array (one pass instead of the kernel and a copy out) it would not win: JS
 * moves a block for more than the kernel and the copy out at every size measured
 * (bench/copy-cost.mjs, and before it the same loop over a resident table), so resident data
 * always takes the kernel.
 */
export function choosePath(t, target, kind, blockBytes, n, wasmBuffer) {
  if (!n || t.data.ptr !== undefined || (target.kind !== 'new' && target.kind !== 'array')) return 'kernel';
  if (target.kind === 'array') {
    const a = target.array;
    if (a.buffer === wasmBuffer || overlaps(a, t.data.data) || (t.updates && t.updates.ptr === undefined && overlaps(a, t.updates.data))) {
      return 'kernel';
    }
  }
  const path = forced ?? modelPath(t.data, TABLES[kind], blockBytes, n);
  pathCounts[path]++;
  return path;
}

// The model: the kernel path copies the data into wasm memory besides (its copy out matches the
// JS path's new array), and each path has its cost per block.
function modelPath(d, tables, blockBytes, n) {
  const bb = blockBytes / n;
  const kernel = d.bytes * COSTS.copyInPerByte + n * perBlock(tables.kernel, bb);
  return n * perBlock(tables.js, bb) < kernel ? 'js' : 'kernel';
}
