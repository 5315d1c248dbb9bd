// The sizes a chart's spec may ask for (src/shared/chart-size.ts): capped at any depth, data untouched
// but for the sequences it generates.
import test from 'ava';
import { cappedChartSizes } from '../../src/shared/chart-size.ts';

test('sizes, layout steps, tick counts, bin counts, generated sequences and the points transforms compute are capped at any depth; data, metadata and what is in bounds are left as they are', (t) => {
  const spec = {
    width: 1e9,
    height: 300,
    data: { values: [{ width: 1e9, height: 1e9 }] },
    datasets: { d: [{ step: 1e9 }] },
    usermeta: { sextant: { height: 1e9 } },
    config: { view: { continuousWidth: 1e9, continuousHeight: 1e9, discreteWidth: 5e5, discreteHeight: 10, step: 1e6 } },
    vconcat: [{ height: 1e9, encoding: { x: { field: 'width', bin: { step: 500, maxbins: 1e9 }, axis: { tickCount: 1e6 } } } }, { width: { step: 1e7 } }],
    layer: [{ data: { sequence: { start: 0, stop: 1e9, as: 'x' } }, transform: [{ impute: 'y', key: 'x', keyvals: { start: 10, stop: 1e12, step: 2 } }] }, { data: { sequence: { start: 0, stop: 50 } } }],
    transform: [{ density: 'x', steps: 1e8, minsteps: 1e6, maxsteps: 1e7 }, { quantile: 'x', step: 1e-8 }, { quantile: 'y', step: 0.25 }, { regression: 'y', on: 'x', method: 'poly', order: 1e4 }, { density: 'y', steps: 50 }],
  };
  t.deepEqual(cappedChartSizes(spec), {
    width: 2000,
    height: 300,
    data: { values: [{ width: 1e9, height: 1e9 }] },
    datasets: { d: [{ step: 1e9 }] },
    usermeta: { sextant: { height: 1e9 } },
    config: { view: { continuousWidth: 2000, continuousHeight: 2000, discreteWidth: 2000, discreteHeight: 10, step: 100 } },
    vconcat: [{ height: 2000, encoding: { x: { field: 'width', bin: { step: 500, maxbins: 1000 }, axis: { tickCount: 100 } } } }, { width: { step: 100 } }],
    // A generated sequence holds at most 10,000 values; a bin's step is data's and stays.
    layer: [{ data: { sequence: { start: 0, stop: 10_000, as: 'x' } }, transform: [{ impute: 'y', key: 'x', keyvals: { start: 10, stop: 20_010, step: 2 } }] }, { data: { sequence: { start: 0, stop: 50 } } }],
    transform: [{ density: 'x', steps: 1000, minsteps: 1000, maxsteps: 1000 }, { quantile: 'x', step: 0.001 }, { quantile: 'y', step: 0.25 }, { regression: 'y', on: 'x', method: 'poly', order: 20 }, { density: 'y', steps: 50 }],
  });
  t.is(spec.width, 1e9, 'the given spec is not changed');
  t.is(cappedChartSizes('container'), 'container');
});
