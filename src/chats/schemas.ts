// The chat records as the API shows them. The same zod schemas document the responses in the
// OpenAPI document and describe what the agent passes to recordAnswer.
import { z } from 'zod';

/** One result table of an answer; `df_key` names it for the agentic download endpoints. */
export const AnswerTable = z.object({
  df_key: z.string().min(1).max(200),
  title: z.string().max(500).optional(),
  /** The query that produced the table, re-run by the CSV and spreadsheet downloads. */
  sql: z.string().max(100_000),
  connection_id: z.string().min(1),
  /** Warehouse dialect of the connection (duckdb, postgresql, mysql, sqlite...), for lineage. */
  dialect: z.string().min(1),
  columns: z.array(z.string()).default([]),
  row_count: z.number().int().min(0).optional(),
  /** A few rows for display; the full result is re-run on download. */
  preview: z.array(z.array(z.unknown())).max(100).optional(),
  /** Display formats of columns that show a governed metric (see the `table` event). */
  formats: z.record(z.string().max(200), z.string().max(20)).optional(),
});
export type AnswerTable = z.infer<typeof AnswerTable>;

export const AnswerChart = z.object({
  chart_id: z.string().min(1).max(200),
  df_key: z.string().optional(),
  type: z.string().min(1).max(50),
  spec: z.unknown(),
});
export type AnswerChart = z.infer<typeof AnswerChart>;

/** What an answer produced: its main query and connection, its tables and charts. */
export const Answer = z.object({
  sql: z.string().max(100_000).optional(),
  connection_id: z.string().optional(),
  dialect: z.string().optional(),
  tables: z.array(AnswerTable).default([]),
  charts: z.array(AnswerChart).default([]),
});
export type Answer = z.infer<typeof Answer>;
export type AnswerInput = z.input<typeof Answer>;

export const KnowledgeItem = z.object({ kind: z.string(), path: z.string() });
export type KnowledgeItem = z.infer<typeof KnowledgeItem>;

export const MessageRole = z.enum(['user', 'assistant', 'system', 'tool']);
export type MessageRole = z.infer<typeof MessageRole>;

export const ChatMessage = z.object({
  message_uuid: z.string(),
  role: MessageRole,
  content: z.string(),
  position: z.number().int(),
  displayed: z.boolean(),
  created_at: z.number().int().describe('ms since the epoch'),
  answer: Answer.nullable(),
  /** Cost of the answer; absent when it was copied from another chat. */
  credits: z.number().nullable(),
  copied_from_chat_id: z.string().nullable(),
  knowledge_commit: z.string().nullable(),
  knowledge_items: z.array(KnowledgeItem),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatSummary = z.object({
  chat_id: z.string(),
  title: z.string(),
  agentic: z.boolean(),
  pinned: z.boolean(),
  archived: z.boolean(),
  labels: z.array(z.string()),
  recently_completed: z.boolean(),
  /** Name of the environment the chat ran in; null for production. */
  environment: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ChatSummary = z.infer<typeof ChatSummary>;

export const ChatHistoryResponse = z
  .object({
    chats: z.array(ChatSummary).describe('Newest first; pinned and archived chats are listed separately'),
    /** Every pinned chat; first page only (empty on later pages). */
    pinned: z.array(ChatSummary),
    /** The most recently archived chats; first page only. */
    archived: z.array(ChatSummary),
    next_cursor: z.string().nullable().describe('Opaque; pass as cursor for the next page, null at the end'),
  })
  .meta({ title: 'ChatHistoryResponse' });
export type ChatHistoryResponse = z.infer<typeof ChatHistoryResponse>;

export const ChatSearchHit = z.object({
  chat_id: z.string(),
  title: z.string(),
  message_uuid: z.string(),
  role: MessageRole,
  /** HTML-escaped excerpt with the matched words wrapped in <mark>. */
  snippet: z.string(),
  score: z.number().describe('Higher is better'),
  updated_at: z.number().int(),
});

export const ChatSearchResponse = z
  .object({ query: z.string(), results: z.array(ChatSearchHit) })
  .meta({ title: 'ChatSearchResponse' });
export type ChatSearchResponse = z.infer<typeof ChatSearchResponse>;

export const ChatPage = z
  .object({
    chat: ChatSummary.optional().describe('Absent with page_only'),
    messages: z.array(ChatMessage).describe('Oldest first within the page'),
    total_pairs: z.number().int(),
    offset: z.number().int(),
    pairs: z.number().int(),
    has_more: z.boolean().describe('True when older pairs exist beyond this page'),
  })
  .meta({ title: 'ChatPage' });
export type ChatPage = z.infer<typeof ChatPage>;
