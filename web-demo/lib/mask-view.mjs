// The masks section's picture: x with its mask drawn over it (the elements the mask keeps, or
// that maskedScatter replaces, outlined; the others greyed), the mask (or condition), the source
// (maskedScatter) and the output as grids. A kept slice (booleanMask, compress), a non-zero
// element's coordinates (nonZero) or a source value (maskedScatter) has one colour, in every grid
// it is in. Hover (or click, which pins it) goes every way: an output element lights the element
// of x it came from (nonZero: the element its coordinates name; maskedScatter: the source value
// it took, and the element of x it replaced), the mask element that kept it; an element of x, a
// mask element or a source value lights where it went. Who went where: lib/mask-map.mjs.
import { unravel } from '../../common/shape.mjs';
import { fmtNum, unitHue } from './dom.mjs';
import { MASK_NAMES } from './mask-ops.mjs';

const at = (flat, shape) => (shape.length ? `[${unravel(flat, shape).join(', ')}]` : ''); // '' for a scalar
const LIST = 6; // positions named in a hover text, the rest counted

/** The view of one call: its grids' specs ({ values, shape, role, label, sign, paint, decorate }) and its hover. */
export function maskView(call, output, map) {
  const { op, x, mask, source } = call;
  const names = MASK_NAMES[op];
  const hue = (u) => ({ hue: unitHue(u) });
  const xUnit = (f) => { const ps = map.outsOfX(f); return ps.length ? map.unitOfOut(ps[0]) : -1; };
  // x's elements the mask keeps (nonZero: the non-zero ones; maskedScatter: the replaced ones)
  const chosen = (f) => (op === 'maskedScatter' ? map.sourceOfOut(f) >= 0 : map.outsOfX(f).length > 0);
  const maskClass = (cell, yes) => cell.classList.add(yes ? 'mask-true' : 'mask-false');

  const xSpec = {
    values: x.data, shape: x.shape, role: 'x', label: names.x,
    paint: (f) => (chosen(f) ? hue(xUnit(f)) : null),
    decorate: (cell, f) => {
      maskClass(cell, chosen(f));
      if (op === 'maskedScatter' && chosen(f)) cell.classList.add('replaced');
    },
  };
  const maskSpec = mask && {
    values: mask.data, shape: mask.shape, role: 'mask', label: names.mask, sign: '+',
    paint: (m) => (map.trueRank(m) >= 0 && map.xOfMask(m).some(chosen) ? hue(unitOfMask(m)) : null),
    decorate: (cell, m) => maskClass(cell, map.trueRank(m) >= 0),
  };
  const sourceSpec = source && {
    values: source.data, shape: source.shape, role: 'source', label: names.source, sign: '+',
    paint: (j) => (map.outOfSource(j) >= 0 ? hue(j) : null),
    decorate: (cell, j) => { if (map.outOfSource(j) < 0) cell.classList.add('unused'); },
  };
  const outSpec = {
    values: output.data, shape: output.shape, role: 'out', label: 'output', sign: '→',
    paint: (p) => (map.unitOfOut(p) >= 0 ? hue(map.unitOfOut(p)) : null),
  };
  const specs = [xSpec, maskSpec, sourceSpec, outSpec].filter(Boolean);

  // A true mask element's colour: its slice's (booleanMask, compress), its source value's (maskedScatter).
  function unitOfMask(m) {
    const f = map.xOfMask(m).find(chosen);
    return f === undefined ? -1 : xUnit(f);
  }

  const xName = (f) => `${names.x}${at(f, x.shape)} = ${fmtNum(x.data[f])}`;
  const maskName = (m) => `${names.mask}${at(m, mask.shape)} = ${fmtNum(mask.data[m])}`;
  const outName = (p) => `output${at(p, output.shape)}`;
  const outList = (ps) => `output ${ps.slice(0, LIST).map((p) => at(p, output.shape)).join(', ')}` +
    (ps.length > LIST ? ` and ${ps.length - LIST} more` : '');
  const truth = (m) => (map.trueRank(m) >= 0 ? `true element ${map.trueRank(m) + 1} of ${map.maskTrue}` : 'false');
  // nonZero: where unit k's coordinates are in the output
  const coordsAt = (k) => (call.attrs.layout === 'torch' ? `output[${k}, :]` : `output[:, ${k}]`);
  const outsOfUnit = (k) => {
    const ps = [];
    for (let p = 0; p < output.data.length; p++) if (map.unitOfOut(p) === k) ps.push(p);
    return ps;
  };

  function fromOut(p, marks) {
    const v = `${outName(p)} = ${fmtNum(output.data[p])}`;
    const f = map.xOfOut(p);
    if (op === 'nonZero') {
      const k = map.unitOfOut(p);
      for (const q of outsOfUnit(k)) marks.push(['out', q]);
      marks.push(['x', f]);
      const c = x.shape.length ? `(${unravel(f, x.shape).join(', ')})` : '()';
      return `${v}: a coordinate of ${xName(f)}, non-zero element ${k + 1} of ${map.units}; its coordinates ${c} are ${coordsAt(k)}`;
    }
    if (op === 'maskedScatter') {
      const j = map.sourceOfOut(p);
      marks.push(['x', f], ['mask', f]);
      if (j < 0) return `${v}: ${maskName(f)} is false, so ${xName(f)} is kept`;
      marks.push(['source', j]);
      return `${v} ← ${names.source}${at(j, source.shape)} = ${fmtNum(source.data[j])}: ${maskName(f)} is ${truth(f)}, ` +
        `so it takes ${names.source}'s value ${j + 1} (${xName(f)} replaced)`;
    }
    const m = map.maskOfX(f);
    marks.push(['x', f], ['mask', m]);
    return `${v} ← ${xName(f)}, kept by ${maskName(m)} (${truth(m)})`;
  }

  function fromX(f, marks) {
    const ps = map.outsOfX(f);
    if (op === 'nonZero') {
      if (!ps.length) return `${xName(f)}: zero, not listed`;
      const k = map.unitOfOut(ps[0]);
      for (const p of ps) marks.push(['out', p]);
      return `${xName(f)}: non-zero element ${k + 1} of ${map.units}; its coordinates are ${coordsAt(k)}`;
    }
    const m = map.maskOfX(f);
    if (m >= 0) marks.push(['mask', m]);
    if (op === 'maskedScatter') {
      const j = map.sourceOfOut(f);
      marks.push(['out', f]);
      if (j < 0) return `${xName(f)}: ${maskName(m)} is false, kept → ${outName(f)}`;
      marks.push(['source', j]);
      return `${xName(f)}: replaced by ${names.source}${at(j, source.shape)} = ${fmtNum(source.data[j])} in ${outName(f)} (${maskName(m)}, ${truth(m)})`;
    }
    if (m < 0) return `${xName(f)}: left out, past the ${mask.data.length} elements of ${names.mask}`;
    if (!ps.length) return `${xName(f)}: left out (${maskName(m)} is false)`;
    for (const p of ps) marks.push(['out', p]);
    return `${xName(f)} → ${outName(ps[0])} (${maskName(m)}, ${truth(m)})`;
  }

  function fromMask(m, marks) {
    const fs = map.xOfMask(m);
    const ps = fs.flatMap((f) => (op === 'maskedScatter' ? [f] : map.outsOfX(f)));
    for (const f of fs) marks.push(['x', f]);
    if (op === 'maskedScatter') {
      const j = map.sourceOfOut(m);
      marks.push(['out', m]);
      if (j >= 0) marks.push(['source', j]);
      return j < 0 ? `${maskName(m)}: false, ${names.x}${at(m, x.shape)} kept`
        : `${maskName(m)}: ${truth(m)}, takes ${names.source}${at(j, source.shape)} = ${fmtNum(source.data[j])} into ${outName(m)}`;
    }
    for (const p of ps) marks.push(['out', p]);
    const what = fs.length === 1 ? xName(fs[0]) : `${fs.length} elements of ${names.x}`;
    if (map.trueRank(m) < 0) return `${maskName(m)}: false, ${what} left out`;
    return `${maskName(m)}: ${truth(m)}, keeps ${what} → ${ps.length === 1 ? outName(ps[0]) : outList(ps)}`;
  }

  function fromSource(j, marks) {
    const p = map.outOfSource(j);
    const v = `${names.source}${at(j, source.shape)} = ${fmtNum(source.data[j])}`;
    if (p < 0) return `${v}: not used (${names.mask} has ${map.maskTrue} true elements, one for each of ${names.source}'s first values)`;
    marks.push(['out', p], ['mask', p], ['x', p]);
    return `${v} → ${outName(p)}: value ${j + 1} of ${names.source}, for ${names.mask}'s true element ${j + 1}, ${names.mask}${at(p, mask.shape)}`;
  }

  /** What hovering cell (role, flat) lights ([[role, flat], ...]) and says. */
  function hover(role, flat) {
    const marks = [[role, flat]];
    const from = { out: fromOut, x: fromX, mask: fromMask, source: fromSource }[role];
    const text = from ? from(flat, marks) : '';
    return { marks: marks.filter(([, f]) => f >= 0), text };
  }

  return { specs, hover };
}
