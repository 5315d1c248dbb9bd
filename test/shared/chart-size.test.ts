// The sizes a chart's spec may ask for (src/shared/chart-size.ts): capped at any depth, data untouched.
import test from 'ava';
import { cappedChartSizes } from '../../src/shared/chart-size.ts';

test('sizes, steps and tick counts are capped at any depth; data, metadata and what is in bounds are left as they are', (t) => {
  const spec = {
    width: 1e9,
    height: 300,
    data: { values: [{ width: 1e9, height: 1e9 }] },
    datasets: { d: [{ step: 1e9 }] },
    usermeta: { sextant: { height: 1e9 } },
    config: { view: { continuousWidth: 1e9, continuousHeight: 1e9, discreteWidth: 5e5, discreteHeight: 10, step: 1e6 } },
    vconcat: [{ height: 1e9, encoding: { x: { field: 'width', axis: { tickCount: 1e6 } } } }, { width: { step: 1e7 } }],
  };
  t.deepEqual(cappedChartSizes(spec), {
    width: 2000,
    height: 300,
    data: { values: [{ width: 1e9, height: 1e9 }] },
    datasets: { d: [{ step: 1e9 }] },
    usermeta: { sextant: { height: 1e9 } },
    config: { view: { continuousWidth: 2000, continuousHeight: 2000, discreteWidth: 2000, discreteHeight: 10, step: 100 } },
    vconcat: [{ height: 2000, encoding: { x: { field: 'width', axis: { tickCount: 100 } } } }, { width: { step: 100 } }],
  });
  t.is(spec.width, 1e9, 'the given spec is not changed');
  t.is(cappedChartSizes('container'), 'container');
});
