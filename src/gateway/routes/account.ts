// Profile, memories, dismissed disclaimers, org discovery by email and embedded-user tokens.
import { z } from 'zod';
import { dismissDisclaimer, dismissedDisclaimers, restoreDisclaimer } from '../../auth/profile/disclaimers.ts';
import { embeddedUserLogin } from '../../auth/credentials/embedded-login.ts';
import { addMemory, deleteMemory, editMemory } from '../../auth/profile/memories.ts';
import { orgFromEmail } from '../../auth/account/org-from-email.ts';
import { getProfile, updateProfile } from '../../auth/profile/profile.ts';
import type { ProfileDeps } from '../../auth/profile/deps.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Memory = z.object({ memory_id: z.string(), title: z.string(), content: z.string(), title_from_user: z.boolean(), created_at: z.number(), updated_at: z.number() });
const Profile = z.object({ user_id: z.string(), email: z.string(), name: z.string(), slack_title: z.string(), memories: z.array(Memory) });
const MemoryParams = z.object({ memory_id: z.string().min(1).max(100) });
const DisclaimerBody = z.object({ disclaimer_hash: z.string().trim().min(1).max(200) });

export function accountRoutes(s: Services) {
  const profile: ProfileDeps = { store: s.executor, clock: s.clock };
  return [
    route({
      method: 'GET',
      path: '/api/auth/user_profile',
      operationId: 'get_user_profile',
      summary: 'Name, Background and saved memories of the caller',
      tags: ['account'],
      auth: 'user',
      response: Profile,
      handler: async ({ principal }) => getProfile(profile, principal),
    }),
    route({
      method: 'PUT',
      path: '/api/auth/user_profile',
      operationId: 'update_user_profile',
      summary: 'Changes name and Background (slack_title)',
      tags: ['account'],
      auth: 'user',
      body: z.object({ name: z.string().trim().min(1).max(200).optional(), slack_title: z.string().max(2000).optional() }),
      response: Profile,
      handler: async ({ principal, body }) => updateProfile(profile, principal, body),
    }),
    route({
      method: 'POST',
      path: '/api/auth/user_memory',
      operationId: 'add_user_memory',
      summary: 'Adds a memory; without a title one is derived from the content',
      tags: ['account'],
      auth: 'user',
      status: 201,
      body: z.object({ content: z.string().trim().min(1).max(10_000), title: z.string().max(200).optional() }),
      response: Memory,
      handler: async ({ principal, body }) => addMemory(profile, principal, body),
    }),
    route({
      method: 'PUT',
      path: '/api/auth/user_memory/{memory_id}',
      operationId: 'edit_user_memory',
      summary: 'Edits a memory; a user-supplied title wins, otherwise the title follows the content',
      tags: ['account'],
      auth: 'user',
      params: MemoryParams,
      body: z.object({ content: z.string().trim().min(1).max(10_000).optional(), title: z.string().max(200).optional() }),
      response: Memory,
      handler: async ({ principal, params, body }) => editMemory(profile, principal, params.memory_id, body),
    }),
    route({
      method: 'DELETE',
      path: '/api/auth/user_memory/{memory_id}',
      operationId: 'delete_user_memory',
      summary: 'Deletes a memory',
      tags: ['account'],
      auth: 'user',
      params: MemoryParams,
      response: z.object({ status: z.literal('deleted') }),
      handler: async ({ principal, params }) => {
        await deleteMemory(profile, principal, params.memory_id);
        return { status: 'deleted' as const };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/get_dismissed_disclaimers',
      operationId: 'get_dismissed_disclaimers',
      summary: 'Dismissed disclaimers as a map of hash to true',
      tags: ['account'],
      auth: 'user',
      response: z.record(z.string(), z.literal(true)),
      handler: async ({ principal }) => dismissedDisclaimers(profile, principal),
    }),
    route({
      method: 'POST',
      path: '/api/auth/dismiss_disclaimer',
      operationId: 'dismiss_disclaimer',
      summary: 'Records that the caller dismissed a disclaimer',
      tags: ['account'],
      auth: 'user',
      body: DisclaimerBody,
      response: z.object({ status: z.literal('dismissed') }),
      handler: async ({ principal, body }) => {
        await dismissDisclaimer(profile, principal, body.disclaimer_hash);
        return { status: 'dismissed' as const };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/restore_disclaimer',
      operationId: 'restore_disclaimer',
      summary: 'Shows a disclaimer the caller dismissed again (idempotent)',
      tags: ['account'],
      auth: 'user',
      body: DisclaimerBody,
      response: z.object({ status: z.literal('restored') }),
      handler: async ({ principal, body }) => {
        await restoreDisclaimer(profile, principal, body.disclaimer_hash);
        return { status: 'restored' as const };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/org_from_email',
      operationId: 'org_from_email',
      summary: 'Which organization and sign-in methods serve the domain of an address (never whether a user exists)',
      tags: ['auth'],
      auth: 'none',
      query: z.object({ email: z.string().trim().min(3).max(320).regex(/^[^\s@]+@[^\s@]+$/, 'Invalid email address') }),
      response: z.object({
        org_id: z.string().nullable(),
        org_name: z.string().nullable(),
        methods: z.array(z.string()).describe("'password', 'magic_link' and 'sso:<type>' per enabled provider"),
        sso: z.array(z.object({ type: z.string(), name: z.string().describe('Display name set by the admin'), login_url: z.string() })),
      }),
      handler: async ({ query }) => orgFromEmail(profile, s.config.baseUrl, query.email),
    }),
    route({
      method: 'POST',
      path: '/api/auth/embedded_user_login',
      operationId: 'embedded_user_login',
      summary: "A short-lived token for an embedded user context in the caller's organization",
      tags: ['auth'],
      auth: 'user',
      body: z.object({ user_id: z.string().min(1).max(100).optional() }),
      handler: ({ principal, body }) => embeddedUserLogin({ ...s.auth, ttlSeconds: s.config.embeddedTokenTtlSeconds }, principal, body.user_id),
    }),
  ];
}
