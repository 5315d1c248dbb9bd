// What the invitation page knows of its link, and the words it uses for it.
import type { ResponseOf } from '../api/types.ts';

export type Invitation = ResponseOf<'/api/auth/invitation/info', 'post'>;

const ROLE_WORDS: Record<Invitation['role'], string> = {
  user: 'a member (asks questions about the data)',
  modeler: 'a modeler (also documents the data and changes knowledge)',
  admin: 'an admin (also runs the organization)',
};

/** The role in words that say what it lets the person do. */
export const roleWords = (role: Invitation['role']) => ROLE_WORDS[role];

/** Who sent it: their name and address, as the mail named them. */
export function inviterWords(i: Invitation): string {
  if (!i.invited_by) return 'An admin';
  const { name, email } = i.invited_by;
  return name && name !== email ? `${name} (${email})` : email;
}

/** Whom to ask for a new link: the inviter, else the organization's admins. */
export function askWhom(i: Invitation): string {
  return i.invited_by ? inviterWords(i) : `an admin of ${i.org_name}`;
}

/** A date as people write it (the invitation's end). */
export const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
