// The example's data, made here from one seed (nothing downloaded): a catalogue of items and the
// users who consumed them, with hidden tastes that a model can learn.
//
//   - Items: GENRES genres, CREATORS creators (each works in one genre), ITEMS items, each with a
//     genre, a creator and a popularity (a Zipf-like weight: a few items are consumed far more).
//   - Users: an age bucket and a region, two favourite genres (the first drawn from a prior that
//     depends on the age bucket, so that age says something too), and INTERACTIONS items: a
//     favourite genre's item (popular ones more often) 9 times in 10, any popular item otherwise.
//   - Each user's first HISTORY items are what the model sees of them (with the age and region);
//     the rest are the positives it must find: training targets for the training users, held-out
//     positives for the held-out users, whom training never sees.

export const GENRES = 16;
export const CREATORS = 200;
export const ITEMS = 2000;
export const AGES = 6;
export const REGIONS = 10;
export const HISTORY = 10;
export const INTERACTIONS = 15; // HISTORY items seen, then INTERACTIONS - HISTORY positives

/** mulberry32: uniform floats in [0, 1) from a 32-bit seed (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Draws an index with probability proportional to weights[i] (binary search in their running sum).
function sampler(weights) {
  const cdf = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => { cdf[i] = total += w; });
  return (next) => {
    const u = next() * total;
    let lo = 0, hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] <= u) lo = mid + 1; else hi = mid;
    }
    return lo;
  };
}

/**
 * The catalogue and the users: { items: { genre, creator } (Int32Arrays of ITEMS), train, heldOut }
 * where each user is { age, region, history: Int32Array(HISTORY), positives: Int32Array }.
 */
export function makeData({ trainUsers = 4000, heldOutUsers = 1000, seed = 1 } = {}) {
  const next = rng(seed);
  const creatorGenre = Int32Array.from({ length: CREATORS }, () => Math.floor(next() * GENRES));
  const genre = new Int32Array(ITEMS);
  const creator = new Int32Array(ITEMS);
  const popularity = new Float64Array(ITEMS);
  for (let i = 0; i < ITEMS; i++) {
    creator[i] = Math.floor(next() * CREATORS);
    genre[i] = creatorGenre[creator[i]];
    popularity[i] = 1 / (1 + Math.floor(next() * ITEMS)) ** 0.8; // a random rank, Zipf-like weight
  }
  const byGenre = Array.from({ length: GENRES }, (_, g) => {
    const members = [];
    genre.forEach((x, i) => { if (x === g) members.push(i); });
    const draw = sampler(members.map((i) => popularity[i]));
    return (n) => members[draw(n)];
  });
  const anyItem = sampler(popularity);
  // Each age bucket prefers 4 genres for its first favourite.
  const agePrior = Array.from({ length: AGES }, () => {
    const w = new Float64Array(GENRES).fill(0.2);
    for (let k = 0; k < 4; k++) w[Math.floor(next() * GENRES)] += 3;
    return sampler(w);
  });

  function user() {
    const age = Math.floor(next() * AGES);
    const region = Math.floor(next() * REGIONS);
    const first = agePrior[age](next);
    const second = Math.floor(next() * GENRES);
    const seen = new Set();
    while (seen.size < INTERACTIONS) {
      const u = next();
      seen.add(u < 0.6 ? byGenre[first](next) : u < 0.9 ? byGenre[second](next) : anyItem(next));
    }
    const order = [...seen];
    return { age, region, history: Int32Array.from(order.slice(0, HISTORY)), positives: Int32Array.from(order.slice(HISTORY)) };
  }
  const train = Array.from({ length: trainUsers }, user);
  const heldOut = Array.from({ length: heldOutUsers }, user);
  return { items: { genre, creator }, train, heldOut };
}

// ---- The features: each tower has one table, its feature kinds side by side in its rows.

/** The user table's rows: [age buckets | regions | history items]. */
export const USER_ROWS = AGES + REGIONS + ITEMS;
/** The item table's rows: [item ids | genres | creators]. */
export const ITEM_ROWS = ITEMS + GENRES + CREATORS;
export const ITEM_FEATURES = 3; // an item's bag: its id, its genre, its creator

/** The users' bags for embeddingBag: every feature id in one Int32Array, and where each user's starts. */
export function userBags(users) {
  const ids = [];
  const offsets = new Int32Array(users.length);
  users.forEach((u, b) => {
    offsets[b] = ids.length;
    ids.push(u.age, AGES + u.region);
    for (const item of u.history) ids.push(AGES + REGIONS + item);
  });
  return { ids: Int32Array.from(ids), offsets };
}

/** The items' bags: a row of ITEM_FEATURES ids each ([n, 3] indices: a bag a row). */
export function itemBags(items, list) {
  const ids = new Int32Array(list.length * ITEM_FEATURES);
  list.forEach((item, b) => {
    ids[b * 3] = item;
    ids[b * 3 + 1] = ITEMS + items.genre[item];
    ids[b * 3 + 2] = ITEMS + GENRES + items.creator[item];
  });
  return ids;
}
