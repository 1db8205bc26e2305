// The classifier at the edge: one embeddingBag over the texts' word and bigram ids (the mean of
// their rows of the resident table, never gathered into memory), then the linear layer and a
// softmax in plain JS, a few hundred multiply-adds a text.
import { bagsOf } from './features.mjs';

/** The model's weights as wasm-gather takes them: the table uploaded once, the layer as arrays. */
export function loadModel(api, model) {
  const floats = (b64) => new Float32Array(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer);
  const table = api.upload({ data: floats(model.embedding), shape: [model.buckets, model.dim] });
  return { ...model, table, dense: floats(model.dense), bias: Float32Array.from(model.bias) };
}

/** { label, p } for each text: its class and the softmax's probability of it. */
export function classify(api, m, texts) {
  const { ids, offsets } = bagsOf(texts);
  const x = api.embeddingBag(m.table, { data: ids, shape: [ids.length] }, { offsets, mode: 'mean' }).data;
  return texts.map((_, t) => {
    const logits = m.labels.map((_, c) => {
      let z = m.bias[c];
      for (let k = 0; k < m.dim; k++) z += x[t * m.dim + k] * m.dense[k * m.labels.length + c];
      return z;
    });
    const top = Math.max(...logits), e = logits.map((z) => Math.exp(z - top)), sum = e.reduce((a, b) => a + b, 0);
    const c = logits.indexOf(top);
    return { label: m.labels[c], p: e[c] / sum };
  });
}
