import { parse, formsOf } from '../src/expr/index.js';
import { mixedExpression } from '../support/realistic-zone.js';
const exprs = Array.from({ length: 2050 }, (_, i) => mixedExpression(i));
const t = performance.now();
for (const e of exprs) formsOf(parse(e));
console.log('cold parse+forms of 2050:', (performance.now() - t).toFixed(1), 'ms');
const t2 = performance.now();
for (const e of exprs) formsOf(parse(e));
console.log('warm (regex cached):', (performance.now() - t2).toFixed(1), 'ms');
