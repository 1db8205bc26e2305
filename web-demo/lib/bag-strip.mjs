// The fused gather-reduce's list of bags (segments): a line per output row, holding that row's
// entries in the order they were reduced, each a cell (data-role "bags", data-flat the entry)
// that shows the table row it read, its weight, and whether it was skipped. Ragged, so it is drawn
// here and not as a grid (lib/grid.mjs); its cells hover as a grid's do.
import { el } from './dom.mjs';

/**
 * opts: { label, meta, rows: [{ label, hue, chips: [{ flat, text, sub?, cls?, title? }], note? }] }.
 * Returns { node, cells: Map(flat -> element) }, as renderGrid does.
 */
export function renderStrip({ label, meta, rows }) {
  const cells = new Map();
  const fig = el('figure', { class: 'grid-figure role-bags', 'data-role': 'bags' });
  fig.append(el('figcaption', {}, el('strong', {}, label), ' ', el('span', { class: 'meta' }, meta)));
  const list = el('div', { class: 'bag-list slice' });
  for (const row of rows) {
    const line = el('div', { class: 'bag-row', 'data-bag': row.label });
    line.append(el('span', { class: 'axis' }, row.label));
    for (const c of row.chips) {
      const cell = el('span', { class: `cell chip painted ${c.cls ?? ''}`.trim(), 'data-flat': c.flat, 'data-role': 'bags',
        tabindex: -1, title: c.title }, c.text, c.sub !== undefined ? el('sub', {}, c.sub) : null);
      cell.style.setProperty('--h', row.hue.toFixed(1));
      cells.set(c.flat, cell);
      line.append(cell);
    }
    if (row.note) line.append(el('span', { class: 'bag-note' }, row.note));
    list.append(line);
  }
  fig.append(list);
  return { node: fig, cells };
}
