// What the masks' ops (js/ops/; src/stage_mask.h) share: the mask, of any array type (true where
// not zero: a float's -0 is false, NaN true), and the rule each says its mask's rank follows.
import { DATA_TYPES_F16, dataTensor } from './tensor.mjs';

/** A mask or condition: a tensor of any element type, a Float16Array's or a resident one too. */
export const maskTensor = (op, name, value, s) => dataTensor(op, name, value, s, DATA_TYPES_F16);
