// A drawing process's script (chart-png.ts starts it): draws each chart it is sent and answers with the
// PNG, or with the message of the error that stopped the drawing. One chart at a time, so the budget
// the gateway keeps for a chart is that chart's alone. It says when it is ready, its libraries loaded:
// a start is not any chart's time.
import { drawChart, loadLibraries, READY, type ChartInput } from './draw-chart.ts';

/** What the process answers: the PNG's bytes, or why the chart did not draw. */
export type DrawReply = { png: Uint8Array } | { error: string };

process.on('message', (input: ChartInput) => {
  drawChart(input).then(
    (png) => process.send!({ png } satisfies DrawReply),
    (err: unknown) => process.send!({ error: err instanceof Error ? err.message : String(err) } satisfies DrawReply),
  );
});
// The gateway gone, the process goes too.
process.on('disconnect', () => process.exit(0));
// Libraries that do not load end the process: the gateway reports that the drawing could not start.
loadLibraries().then(
  () => process.send!(READY),
  () => process.exit(1),
);
