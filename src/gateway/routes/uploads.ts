import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { assertNotOthersChat } from '../../chats/index.ts';
import { ValidationFailed } from '../../errors.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const UploadedFile = z.object({
  file_id: z.string(),
  original_name: z.string(),
  stored_name: z.string(),
  size: z.number(),
  path_in_sandbox: z.string(),
  kind: z.enum(['csv', 'tsv', 'parquet', 'json', 'xlsx', 'text', 'image', 'pdf', 'zip']),
  files: z.array(z.object({ path_in_sandbox: z.string(), size: z.number(), kind: z.string() })).optional(),
  skipped: z.array(z.string()).optional(),
  created_at: z.number(),
});

/** Chat uploads (interface part 4): one file per request, in the `file` field. */
export function uploadRoutes(s: Services) {
  return [
    route({
      method: 'POST',
      path: '/api/upload_to_chat',
      operationId: 'upload_to_chat',
      summary: 'Uploads a data file, text, image, PDF or ZIP archive (extracted with safety checks) into a chat',
      tags: ['chats'],
      auth: 'user',
      bodyType: 'multipart',
      body: z.object({
        // The pattern (1 to 128 of A-Z a-z 0-9 _ -) is checked by the upload store, inside the handler, so a
        // refused request still reaches the `finally` that deletes the parser's temporary files.
        chat_id: z.string().optional().describe('Chat the file belongs to: 1 to 128 letters, digits, _ or -'),
        // Documents the file part for OpenAPI; the parser hands files over separately (ctx.request.files).
        file: z.unknown().optional().describe('The file, as the multipart part named "file" (binary)'),
      }),
      response: UploadedFile,
      handler: async ({ body, principal, ctx }) => {
        const all = Object.values(ctx.request.files ?? {}).flat();
        try {
          const field = ctx.request.files?.['file'];
          const files = field === undefined ? [] : Array.isArray(field) ? field : [field];
          if (files.length !== 1 || all.length !== 1) {
            throw new ValidationFailed([{ loc: ['body', 'file'], msg: files.length === 0 ? 'Field required' : 'Send one file per request', type: files.length === 0 ? 'missing' : 'value_error' }]);
          }
          const file = files[0]!;
          // Someone else's chat of this organization is answered like a missing one (a new chat_id is fine).
          if (body.chat_id) await assertNotOthersChat(s.chats, principal, body.chat_id);
          return await s.uploads.store(
            { orgId: principal.orgId, userId: principal.userId, ...(body.chat_id ? { chatId: body.chat_id } : {}) },
            { tempPath: file.filepath, originalName: file.originalFilename ?? 'file', size: file.size },
          );
        } finally {
          await Promise.all(all.map((f) => rm(f.filepath, { force: true })));
        }
      },
    }),
  ];
}
