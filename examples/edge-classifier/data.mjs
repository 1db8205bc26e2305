// The training data, made here from one seed (nothing downloaded): short reviews from templates,
// positive or negative by their adjective, and flipped by a "not" before it, so that words alone
// cannot tell "was good" from "was not good" and the bigrams must.
const SUBJECTS = ['the food', 'the service', 'this movie', 'the hotel', 'the book', 'our waiter', 'the room',
  'the plot', 'the staff', 'the coffee', 'the ending', 'the music'];
const GOOD = ['good', 'great', 'excellent', 'wonderful', 'delicious', 'friendly', 'lovely', 'amazing', 'fantastic', 'superb'];
const BAD = ['bad', 'terrible', 'awful', 'horrible', 'bland', 'rude', 'dirty', 'boring', 'disappointing', 'poor'];
export const LABELS = ['negative', 'positive'];

// mulberry32 (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c)
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n reviews { text, label } (label: 0 negative, 1 positive) from the seed. */
export function reviews(n, seed) {
  const next = rng(seed);
  const pick = (a) => a[Math.floor(next() * a.length)];
  const out = [];
  for (let i = 0; i < n; i++) {
    const positive = next() < 0.5, negated = next() < 0.4;
    const adj = pick(positive !== negated ? GOOD : BAD); // "not" + a bad word is a positive review
    const subject = pick(SUBJECTS), not = negated ? 'not ' : '', really = next() < 0.3 ? 'really ' : '';
    const text = pick([
      () => `${subject} was ${really}${not}${adj}`,
      () => `i thought ${subject} was ${not}${adj}`,
      () => `${subject} is ${not}${adj}, ${pick(['honestly', 'to be fair', 'i must say', 'overall'])}`,
      () => `${pick(['we', 'i', 'my friends'])} found ${subject} ${really}${not}${adj}`,
    ])();
    out.push({ text, label: positive ? 1 : 0 });
  }
  return out;
}
