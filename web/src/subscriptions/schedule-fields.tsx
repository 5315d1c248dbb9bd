// How often a report is sent: every day, week or month at a time, or a cron expression, in a time
// zone (the browser's by default). The server maps the presets to cron and checks all of it.
import { Field } from '../ui/field.tsx';
import { SelectField } from './select-field.tsx';
import { DAYS } from './schedule-text.ts';

export interface ScheduleDraft {
  every: 'day' | 'week' | 'month' | 'cron';
  at: string;
  day: string;
  cron: string;
  timezone: string;
}

export const defaultSchedule = (): ScheduleDraft => ({ every: 'week', at: '08:00', day: '1', cron: '0 8 * * 1', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' });

/** The schedule as the API takes it. */
export function scheduleBody(s: ScheduleDraft) {
  if (s.every === 'cron') return { cron: s.cron, timezone: s.timezone };
  if (s.every === 'day') return { every: s.every, at: s.at, timezone: s.timezone };
  return { every: s.every, at: s.at, day: Number(s.day), timezone: s.timezone };
}


export function ScheduleFields({ value: s, onChange, error }: { value: ScheduleDraft; onChange: (s: ScheduleDraft) => void; error: (name: string) => string | undefined }) {
  const set = (patch: Partial<ScheduleDraft>) => onChange({ ...s, ...patch });
  return (
    <>
      <SelectField label="How often" value={s.every} onChange={(every) => set({ every, day: every === 'month' ? '1' : s.day })}>
        <option value="day">Every day</option>
        <option value="week">Every week</option>
        <option value="month">Every month</option>
        <option value="cron">Cron expression</option>
      </SelectField>
      {s.every === 'week' && (
        <SelectField label="Day" value={s.day} onChange={(day) => set({ day })}>
          {DAYS.map((d, i) => (
            <option key={d} value={String(i)}>
              {d}
            </option>
          ))}
        </SelectField>
      )}
      {s.every === 'month' && <Field label="Day of the month" type="number" min={1} max={31} value={s.day} onChange={(day) => set({ day })} error={error('schedule.day')} />}
      {s.every === 'cron' ? (
        <Field label="Cron (minute hour day month weekday)" value={s.cron} onChange={(cron) => set({ cron })} error={error('schedule.cron')} required />
      ) : (
        <Field label="At" type="time" value={s.at} onChange={(at) => set({ at })} error={error('schedule.at')} required />
      )}
      <Field label="Time zone" value={s.timezone} onChange={(timezone) => set({ timezone })} error={error('schedule.timezone')} required />
    </>
  );
}
