// /admin/members: the organization's members, searched by name or email, in keyset pages; each
// member's card holds what an admin can change about them (member-card.tsx).
import { useRef } from 'react';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { SearchForm } from '../ui/search-form.tsx';
import { MemberCard } from './member-card.tsx';
import { PageButtons, useSearchedPages } from './pages.tsx';
import type { Member } from './roles.ts';

const PAGE = 25;

export function MembersPage() {
  useDocumentTitle('Members');
  const heading = useRef<HTMLHeadingElement>(null);
  const { q, search, pages, list } = useSearchedPages(heading, (query, signal) => call(api.GET('/api/admin/members', { params: { query: { ...query, limit: PAGE } }, signal })));
  const replace = (m: Member) => list.update((d) => ({ ...d, members: d.members.map((x) => (x.user_id === m.user_id ? m : x)) }));
  const removed = (id: string) => list.update((d) => ({ ...d, members: d.members.filter((x) => x.user_id !== id) }));
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Members
      </h1>
      <SearchForm name="Members" label="Search by name or email" onSearch={search} />
      <FormAlert problem={list.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.members.length === 0 ? (
          <p>{q ? `No member matches “${q}”.` : 'No member on this page.'}</p>
        ) : (
          <ul className="cards" aria-label="Members">
            {list.data.members.map((m) => (
              <MemberCard key={m.user_id} member={m} onChange={replace} onRemoved={removed} />
            ))}
          </ul>
        ))}
      <PageButtons label="Member pages" pages={pages} nextCursor={list.data?.next_cursor} previousText="Previous page" nextText="Next page" />
    </>
  );
}
