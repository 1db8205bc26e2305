// Grouped horizontal bar chart (SVG): one group per workload, one bar per implementation,
// each group scaled to its own slowest bar (workloads differ by orders of magnitude).
import { fmtMs, svg } from './dom.mjs';

const W = 720, LABEL = 210, BAR = 18, GAP = 4, GROUP_GAP = 26, VALUE = 150;

/** rows: [{ group, groupTitle, impl, ms, cls, note }] in display order. */
export function barChart(rows, { title }) {
  const groups = [...new Set(rows.map((r) => r.group))];
  const height = 28 + groups.reduce((h, g) => h + rows.filter((r) => r.group === g).length * (BAR + GAP) + GROUP_GAP, 0);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${height}`, width: W, height, role: 'img', 'aria-label': title, class: 'bars' });
  chart.append(svg('title', {}, title));
  let y = 24;
  const span = W - LABEL - VALUE;
  for (const g of groups) {
    const rs = rows.filter((r) => r.group === g);
    const max = Math.max(...rs.map((r) => r.ms));
    chart.append(svg('text', { x: 0, y: y - 6, class: 'group' }, rs[0].groupTitle));
    for (const r of rs) {
      const w = Math.max(2, (r.ms / max) * span);
      chart.append(svg('text', { x: LABEL - 8, y: y + BAR - 5, class: 'impl', 'text-anchor': 'end' }, r.impl));
      chart.append(svg('rect', { x: LABEL, y, width: w.toFixed(1), height: BAR, rx: 3, class: `bar ${r.cls}` },
        svg('title', {}, `${r.impl}: ${fmtMs(r.ms)} per call`)));
      chart.append(svg('text', { x: LABEL + w + 6, y: y + BAR - 5, class: 'value' }, `${fmtMs(r.ms)}${r.note ? `  ${r.note}` : ''}`));
      y += BAR + GAP;
    }
    y += GROUP_GAP;
  }
  return chart;
}
