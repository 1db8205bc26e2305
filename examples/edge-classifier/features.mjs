// Text to the model's ids: lower-case words, and each pair of neighbouring words (a bigram, so that
// "not good" is not "good"), each hashed into one of BUCKETS rows of the embedding (the hashing
// trick of fastText and Vowpal Wabbit: no vocabulary to ship). The same code at training and at
// the edge, so the two agree on every id.
export const BUCKETS = 4096;

// FNV-1a, 32 bits (http://www.isthe.com/chongo/tech/comp/fnv/).
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The words of a text: runs of letters and apostrophes, lower-cased. */
export const words = (text) => text.toLowerCase().match(/[a-z']+/g) ?? [];

/** The ids of a text's words and bigrams (an empty text has none: its bag is empty). */
export function idsOf(text) {
  const w = words(text);
  const ids = w.map((x) => fnv1a(x) % BUCKETS);
  for (let i = 1; i < w.length; i++) ids.push(fnv1a(`${w[i - 1]} ${w[i]}`) % BUCKETS);
  return ids;
}

/** Texts as embeddingBag's bags: every id in one Int32Array, and where each text's bag starts. */
export function bagsOf(texts) {
  const lists = texts.map(idsOf);
  const offsets = Int32Array.from(lists, (_, i) => lists.slice(0, i).reduce((n, l) => n + l.length, 0));
  return { ids: Int32Array.from(lists.flat()), offsets };
}
