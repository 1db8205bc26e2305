// Small DOM and number-formatting helpers shared by the demo's modules.

export const $ = (sel, root = document) => root.querySelector(sel);

/** el('div', { class: 'x', 'data-y': 1 }, child, 'text', [more]) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'style' && typeof v === 'object') Object.assign(node.style, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** svg('rect', { x: 1 }, ...children): an SVG element. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** A value as text: integers exactly, -0 as '-0', other floats to 6 significant digits. */
export function fmtNum(v) {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return Object.is(v, -0) ? '-0' : String(v);
  if (!Number.isFinite(v)) return String(v);
  return String(Number(v.toPrecision(6)));
}

export const fmtShape = (shape) => `[${shape.join(', ')}]`;

/** Milliseconds with a unit that suits them: 12.3 ms, 456 µs. */
export function fmtMs(ms) {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toPrecision(3)} µs`;
}

/** Colour of gathered unit u: golden-angle hues, so neighbours differ. */
export function unitHue(u) {
  return (u * 137.508 + 205) % 360;
}
