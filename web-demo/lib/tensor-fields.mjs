// The editor's two tensor fieldsets, data and indices, hold the same fields (values, shape,
// type): index.html leaves them empty and they are built here from one description.
import { el } from './dom.mjs';

/**
 * Fills <fieldset data-tensor="data" data-name="params" data-rows="4"> (data-title: the legend's
 * word, else the capitalized data-tensor): a legend naming the tensor, a values textarea, a shape input and a type select, with ids `${data-tensor}-label`,
 * `-values`, `-shape` and `-type`.
 */
export function fillTensorFieldset(fieldset) {
  const { tensor: kind, name, rows } = fieldset.dataset;
  const title = fieldset.dataset.title ?? kind[0].toUpperCase() + kind.slice(1);
  fieldset.replaceChildren(
    el('legend', {}, `${title}: `, el('span', { id: `${kind}-label` }, name)),
    el('label', { class: 'field' }, 'values ', el('textarea', { id: `${kind}-values`, rows, spellcheck: 'false' })),
    el('div', { class: 'row' },
      el('label', { class: 'field' }, 'shape ', el('input', { id: `${kind}-shape`, type: 'text', spellcheck: 'false' })),
      el('label', { class: 'field' }, 'type ', el('select', { id: `${kind}-type` }))),
  );
}
