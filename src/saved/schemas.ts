// Saved questions as the API shows them; the same zod schemas document the responses in OpenAPI.
import { z } from 'zod';

/** `private`: the owner only; `organization`: every member of the organization. */
export const Visibility = z.enum(['private', 'organization']);
export type Visibility = z.infer<typeof Visibility>;

/** Where a question was saved from: an answer's table in a chat. */
export const QuestionSource = z.object({ chat_id: z.string(), message_uuid: z.string(), df_key: z.string().nullable() });
export type QuestionSource = z.infer<typeof QuestionSource>;

/** A Vega-Lite spec. */
export const ChartSpec = z.record(z.string(), z.unknown());
export type ChartSpec = z.infer<typeof ChartSpec>;

/** What one version of a question holds. */
const Content = {
  title: z.string(),
  description: z.string(),
  visibility: Visibility,
  connection_id: z.string(),
  sql: z.string(),
  chart: ChartSpec.nullable().describe('Vega-Lite spec; null for a table only'),
  knowledge_commit: z.string().nullable().describe('The knowledge commit the answer used (where it came from; runs are governed by the current knowledge)'),
};

export const SavedQuestion = z.object({
  id: z.string(),
  ...Content,
  owner_id: z.string(),
  version: z.number().int(),
  source: QuestionSource.nullable(),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
});
export type SavedQuestion = z.infer<typeof SavedQuestion>;

export const SavedQuestionVersion = z.object({
  version: z.number().int(),
  ...Content,
  edited_by: z.string().nullable(),
  edited_at: z.string().describe('ISO 8601'),
});
export type SavedQuestionVersion = z.infer<typeof SavedQuestionVersion>;

export const QuestionRun = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  read_at: z.string().describe('When the warehouse was read (ISO 8601)'),
  truncated: z.boolean(),
});
export type QuestionRun = z.infer<typeof QuestionRun>;

/** The fields a question is written with; absent ones keep their value on update. */
export interface QuestionFields {
  title: string;
  description: string;
  visibility: Visibility;
  connection_id: string;
  sql: string;
  chart: ChartSpec | null;
  knowledge_commit: string | null;
}
