// Draws a tensor as grids of cells: rank 0-2 as one grid, rank 3+ as a row of 2-D slices (one
// per leading coordinate). Long axes are cut (the rest summarised in a note). Each cell carries
// data-flat (its row-major position) for hovering, and a colour from paint(flat).
import { numel, unravel } from '../../common/shape.mjs';
import { el, fmtNum, fmtShape } from './dom.mjs';

const MAX_SLICES = 8;
const CELL_BUDGET = 240; // fewer slices when each is large
const MAX_ROWS = 10;
const MAX_COLS = 12;

/**
 * opts: { values, shape, role: 'data'|'indices'|'out'|'scales'|'zp'|'table', label, paint(flat)
 * -> { hue, count } | { zero: true } | null, maxCols (default 12), marked(flat): true for a cell
 * that starts a block (class block-start), decorate(cell, flat): what a view adds to a cell (the
 * scatters' order badges) }. Returns { node, cells: Map(flat -> element) }.
 */
export function renderGrid({ values, shape, role, label, paint, maxCols = MAX_COLS, marked, decorate }) {
  const cells = new Map();
  const rank = shape.length;
  const rows = rank >= 2 ? shape[rank - 2] : 1;
  const cols = rank >= 1 ? shape[rank - 1] : 1;
  const lead = rank > 2 ? shape.slice(0, -2) : [];
  const slices = numel(lead);
  const total = numel(shape);
  const fig = el('figure', { class: `grid-figure role-${role}`, 'data-role': role });
  fig.append(el('figcaption', {}, el('strong', {}, label), ' ', el('span', { class: 'meta' }, fmtShape(shape))));
  const row = el('div', { class: 'slices' });
  fig.append(row);
  if (total === 0) {
    row.append(el('p', { class: 'empty' }, `empty (${fmtShape(shape)})`));
    return { node: fig, cells };
  }
  const showR = Math.min(rows, MAX_ROWS);
  const showC = Math.min(cols, maxCols);
  const maxSlices = Math.max(1, Math.min(MAX_SLICES, Math.floor(CELL_BUDGET / (showR * showC))));
  for (let s = 0; s < Math.min(slices, maxSlices); s++) {
    const grid = el('div', {
      class: 'grid', role: 'group', 'aria-label': `${label} ${sliceName(lead, s, rank)}`,
      style: { gridTemplateColumns: `auto repeat(${showC + (cols > showC ? 1 : 0)}, minmax(2.4em, max-content))` },
    });
    grid.append(el('span', { class: 'axis corner' }, rank > 2 ? sliceName(lead, s, rank) : ''));
    for (let c = 0; c < showC; c++) grid.append(el('span', { class: 'axis' }, rank >= 1 ? c : ''));
    if (cols > showC) grid.append(el('span', { class: 'axis' }, '…'));
    for (let r = 0; r < showR; r++) {
      grid.append(el('span', { class: 'axis' }, rank >= 2 ? r : ''));
      for (let c = 0; c < showC; c++) {
        const flat = (s * rows + r) * cols + c;
        const cell = el('span', { class: 'cell', 'data-flat': flat, 'data-role': role, tabindex: role === 'out' ? 0 : -1 },
          fmtNum(values[flat]));
        if (marked?.(flat)) cell.classList.add('block-start');
        const p = paint?.(flat);
        if (p?.zero) cell.classList.add('zeroed');
        else if (p) {
          cell.classList.add('painted');
          cell.style.setProperty('--h', p.hue.toFixed(1));
          if (p.count > 1) cell.dataset.count = `×${p.count}`;
        }
        decorate?.(cell, flat);
        cells.set(flat, cell);
        grid.append(cell);
      }
      if (cols > showC) grid.append(el('span', { class: 'more' }, '…'));
    }
    if (rows > showR) grid.append(el('span', { class: 'more', style: { gridColumn: '1 / -1' } }, `⋮ ${rows - showR} more rows`));
    row.append(el('div', { class: 'slice' }, grid));
  }
  if (slices > maxSlices) row.append(el('p', { class: 'more-slices' }, `… ${(slices - maxSlices).toLocaleString('en')} more slices`));
  if (rows > showR || cols > showC || slices > maxSlices) {
    fig.append(el('p', { class: 'cut' }, `showing ${cells.size} of ${total.toLocaleString('en')} elements`));
  }
  return { node: fig, cells };
}

function sliceName(lead, s, rank) {
  return `[${[...unravel(s, lead), ...Array(Math.min(rank, 2)).fill(':')].join(', ')}]`;
}
