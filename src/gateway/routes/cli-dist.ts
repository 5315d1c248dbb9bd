// Distribution of the command-line tool and its agent skill, plus product help for `sextant help`.
import { z } from 'zod';
import { consumeQuota } from '../../auth/credentials/rate-limit.ts';
import { buildCliBundle, CLI_PLATFORMS, createHelpIndex, skillArchive, skillDocument } from '../../distribution/index.ts';
import { NotFound } from '../../errors.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Version = z.object({
  version: z.string(),
  requires: z.string().describe('Runtime the build needs'),
  downloads: z.record(z.string(), z.string()).describe('Download URL per platform'),
});

const Help = z.object({ answer: z.string(), sources: z.array(z.object({ title: z.string(), source: z.string() })) });

/** Routes under /api/cli: version, download, skill, dot.skill, help. */
export function cliDistributionRoutes(s: Services) {
  const tags = ['cli'];
  let bundle: Promise<Buffer> | undefined;
  let archive: Promise<Buffer> | undefined;
  let help: ReturnType<typeof createHelpIndex> | undefined;
  const downloads = Object.fromEntries(CLI_PLATFORMS.map((p) => [p, `${s.config.baseUrl}/api/cli/download/${p}`]));
  return [
    route({
      method: 'GET', path: '/api/cli/version', operationId: 'cli_version', tags, auth: 'none', response: Version,
      summary: 'Latest CLI version and its download URLs',
      handler: () => ({ version: s.config.version, requires: 'Node.js >= 20', downloads }),
    }),
    route({
      method: 'GET', path: '/api/cli/download/{platform}', operationId: 'cli_download', tags, auth: 'none', produces: 'application/javascript',
      params: z.object({ platform: z.string().max(40) }),
      summary: 'Self-contained build of the CLI (one JavaScript file; run it with node); unknown platform 404',
      handler: async ({ params, ctx }) => {
        if (!(CLI_PLATFORMS as readonly string[]).includes(params.platform)) throw new NotFound(`No CLI build for platform ${params.platform}`, 'CLI_PLATFORM_NOT_FOUND');
        bundle ??= buildCliBundle().catch((err: unknown) => {
          bundle = undefined; // a failed build is retried on the next request
          throw err;
        });
        ctx.type = 'application/javascript';
        ctx.attachment(`sextant-${s.config.version}.mjs`);
        ctx.body = await bundle;
      },
    }),
    route({
      method: 'GET', path: '/api/cli/skill', operationId: 'cli_skill', tags, auth: 'none', produces: 'text/markdown',
      summary: 'Agent skill document: how a coding agent uses the CLI and the MCP server',
      handler: ({ ctx }) => {
        ctx.type = 'text/markdown; charset=utf-8';
        ctx.body = skillDocument();
      },
    }),
    route({
      method: 'GET', path: '/api/cli/dot.skill', operationId: 'cli_dot_skill', tags, auth: 'none', produces: 'application/zip',
      summary: 'Zip archive with a root folder holding the skill document',
      handler: async ({ ctx }) => {
        archive ??= skillArchive(new Date(s.clock.now()));
        ctx.type = 'application/zip';
        ctx.attachment('sextant.skill');
        ctx.body = await archive;
      },
    }),
    route({
      method: 'GET', path: '/api/cli/help', operationId: 'cli_help', tags, auth: 'user', response: Help,
      query: z.object({ q: z.string().min(3).max(500) }),
      summary: 'Answers a question about the product from its documentation (no model call); capped per user',
      handler: async ({ query, principal }) => {
        await consumeQuota(s.auth, `cli_help:${principal.userId}`, { max: s.config.cliHelpPerHour, windowMs: 3_600_000 });
        return (help ??= createHelpIndex()).answer(query.q);
      },
    }),
  ];
}
