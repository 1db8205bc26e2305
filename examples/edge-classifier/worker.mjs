// The edge function (a Cloudflare Worker, run here by workerd): POST a JSON array of texts, get
// back a class and its probability for each. The model (model.json, written by train.mjs) is
// bundled into the worker; the wasm module is imported as a module, as Workers require (they
// compile no code at run time).
import * as api from 'wasm-gather';
import wasm from 'wasm-gather/simd.wasm';
import model from './build/model.json';
import { classify, loadModel } from './classify.mjs';

let ready; // the module and the resident table, made by the first request of an isolate

export default {
  async fetch(request) {
    if (request.method !== 'POST') return new Response('POST a JSON array of texts\n', { status: 405 });
    const texts = await request.json();
    if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string')) {
      return new Response('expected a JSON array of strings\n', { status: 400 });
    }
    ready ??= api.init({ wasm }).then(() => loadModel(api, model));
    return Response.json(classify(api, await ready, texts));
  },
};
