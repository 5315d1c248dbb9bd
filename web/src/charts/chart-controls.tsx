// The chart controls: type, axes, series, sort, number and date formats over a result's columns.
// Each choice changes the settings; chart-spec.ts turns them into the Vega-Lite spec.
import { SelectField } from '../ui/field.tsx';
import { CHART_TYPES, DATE_FORMATS, NUMBER_FORMATS, sortsFor, type ChartSettings, type Column } from '../../../src/shared/chart-spec.ts';

const TYPE_LABELS: Record<ChartSettings['type'], string> = { bar: 'Bar', line: 'Line', area: 'Area', scatter: 'Scatter', pie: 'Pie', number: 'Single number', table: 'Table only' };
const SORT_LABELS: Record<ChartSettings['sort'], string> = {
  none: 'As the query returns them',
  'x-ascending': 'By the x axis, ascending',
  'x-descending': 'By the x axis, descending',
  'y-ascending': 'By the value, ascending',
  'y-descending': 'By the value, descending',
};
const NUMBER_LABELS: Record<ChartSettings['numberFormat'], string> = { auto: 'Automatic', integer: '1,235', decimal: '1,234.56', percent: '12.3%', compact: '1.23k' };
const DATE_LABELS: Record<ChartSettings['dateFormat'], string> = { auto: 'Automatic', day: '2026-01-31', month: 'Jan 2026', quarter: 'Q1 2026', year: '2026' };

const options = <K extends string>(keys: readonly K[], labels: Record<K, string>) => keys.map((k) => ({ value: k, label: labels[k] }));

export function ChartControls({ settings, columns, onChange }: { settings: ChartSettings; columns: Column[]; onChange: (s: ChartSettings) => void }) {
  const set = <K extends keyof ChartSettings>(key: K, value: ChartSettings[K]) => onChange({ ...settings, [key]: value });
  const names = columns.map((c) => ({ value: c.name, label: c.name }));
  const charted = settings.type !== 'table';
  const axes = charted && settings.type !== 'number';
  const sorts = sortsFor(settings, columns);
  return (
    <fieldset className="chart-controls">
      <legend>Chart</legend>
      <SelectField label="Chart type" value={settings.type} onChange={(v) => set('type', v as ChartSettings['type'])} options={options(CHART_TYPES, TYPE_LABELS)} />
      {axes && <SelectField label={settings.type === 'pie' ? 'Slices' : 'X axis'} value={settings.x ?? ''} onChange={(v) => set('x', v || undefined)} options={names} />}
      {charted && <SelectField label={settings.type === 'number' ? 'Value' : 'Y axis'} value={settings.y ?? ''} onChange={(v) => set('y', v || undefined)} options={names} />}
      {axes && settings.type !== 'pie' && (
        <SelectField label="Series (color)" value={settings.series ?? ''} onChange={(v) => set('series', v || undefined)} options={[{ value: '', label: 'None' }, ...names]} />
      )}
      {axes && (
        // A value sort kept from a bar chart is not applied to a line over time: shown as the date order it draws in.
        <SelectField label="Sort" value={sorts.includes(settings.sort) ? settings.sort : 'none'} onChange={(v) => set('sort', v as ChartSettings['sort'])} options={options(sorts, SORT_LABELS)} />
      )}
      {charted && <SelectField label="Number format" value={settings.numberFormat} onChange={(v) => set('numberFormat', v as ChartSettings['numberFormat'])} options={options(NUMBER_FORMATS, NUMBER_LABELS)} />}
      {axes && <SelectField label="Date format" value={settings.dateFormat} onChange={(v) => set('dateFormat', v as ChartSettings['dateFormat'])} options={options(DATE_FORMATS, DATE_LABELS)} />}
    </fieldset>
  );
}
