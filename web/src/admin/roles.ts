// The roles of a member, as the admin pages offer them.
import type { ResponseOf } from '../api/types.ts';

export type Member = ResponseOf<'/api/admin/members/{user_id}', 'get'>;
export type Role = Member['role'];

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'user', label: 'User' },
  { value: 'modeler', label: 'Modeler' },
  { value: 'admin', label: 'Admin' },
];

/** Runs one action of a member's card; its message or refusal is shown on the card. */
export type Run = (what: () => Promise<string>) => Promise<void | undefined>;
