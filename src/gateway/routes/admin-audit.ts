// The organization's audit log for admins (issue 23): filtered keyset pages, and a streamed export
// as JSON lines or CSV (formula-looking cells defused by the chats' CSV writer).
import { Readable } from 'node:stream';
import { z } from 'zod';
import { AUDIT_COLUMNS, exportAudit, listAudit, type AuditFilter, type AuditView } from '../../auth/audit-log/read-audit.ts';
import { csvLine } from '../../shared/csv.ts';
import { dateMs, DateParam } from '../admin-dates.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Filters = z.object({
  actor_id: z.string().min(1).max(200).optional(),
  actor_email: z.string().min(3).max(320).optional().describe("The actor's email, in any case: a member since removed is found by it too"),
  action: z.string().min(1).max(100).optional(),
  target_id: z.string().min(1).max(200).optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  from: DateParam.optional().describe('Inclusive'),
  to: DateParam.optional().describe('Inclusive for a date, exclusive for a date-time'),
});
const Entry = z.object({
  id: z.string(), time: z.string().describe('ISO 8601'), action: z.string(), outcome: z.string(),
  actor_id: z.string().nullable(), actor_email: z.string().nullable(), user_id: z.string().nullable(),
  target_type: z.string().nullable(), target_id: z.string().nullable(), ip: z.string().nullable().describe('Client address'),
  data: z.record(z.string(), z.unknown()),
});

function filterOf(q: z.output<typeof Filters>): AuditFilter {
  return { actorId: q.actor_id, actorEmail: q.actor_email, action: q.action, targetId: q.target_id, outcome: q.outcome, from: dateMs(q.from, 'from', false), to: dateMs(q.to, 'to', true) };
}

async function* lines(rows: AsyncGenerator<AuditView>, csv: boolean): AsyncGenerator<string> {
  if (csv) yield csvLine(AUDIT_COLUMNS);
  for await (const row of rows) yield csv ? csvLine(AUDIT_COLUMNS.map((c) => (c === 'data' ? JSON.stringify(row.data) : row[c]))) : `${JSON.stringify(row)}\n`;
}

/** Audit log routes for admins. */
export function adminAuditRoutes(s: Services) {
  const common = { tags: ['admin'], auth: 'user' as const, role: 'admin' as const };
  return [
    route({
      ...common, method: 'GET', path: '/api/admin/audit', operationId: 'admin_list_audit',
      query: Filters.extend({ cursor: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(50) }),
      response: z.object({ entries: z.array(Entry), next_cursor: z.string().nullable() }),
      summary: "Admin: the organization's audit log, newest first, filtered, in keyset pages",
      handler: ({ principal, query }) => listAudit({ x: s.executor }, principal, filterOf(query), { cursor: query.cursor, limit: query.limit }),
    }),
    route({
      ...common, method: 'GET', path: '/api/admin/audit/export', operationId: 'admin_export_audit',
      query: Filters.extend({ format: z.enum(['jsonl', 'csv']).default('jsonl') }),
      produces: 'application/x-ndjson',
      summary: "Admin: streams the organization's audit log (filtered, newest first) as JSON lines or CSV",
      handler: ({ principal, query, ctx }) => {
        const csv = query.format === 'csv';
        const rows = exportAudit({ x: s.executor }, principal, filterOf(query));
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Content-Disposition', `attachment; filename="audit-log.${csv ? 'csv' : 'jsonl'}"`);
        ctx.type = csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
        ctx.body = Readable.from(lines(rows, csv));
      },
    }),
  ];
}
