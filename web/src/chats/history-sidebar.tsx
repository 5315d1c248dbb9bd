// The history beside the Ask pages: a new chat, search, then pinned chats, recent chats (the next
// page loads as the list scrolls to its end, or with the button) and the recently archived ones.
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { FormAlert } from '../ui/form-alert.tsx';
import { ChatItem } from './chat-item.tsx';
import { useChatList, type ChatList, type ChatSummary } from './chat-list.tsx';
import { SearchResults } from './chat-search.tsx';

export function HistorySidebar() {
  const list = useChatList();
  const [query, setQuery] = useState('');
  const scroller = useRef<HTMLElement>(null);
  const searchId = useId();
  return (
    <nav id="chat-history" className="history" aria-label="Chat history" ref={scroller}>
      <Link to="/" className="button primary new-chat">
        New chat
      </Link>
      <form role="search" aria-label="Chats" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={searchId} className="visually-hidden">
          Search chats
        </label>
        <input id={searchId} type="search" value={query} placeholder="Search chats" onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setQuery('')} />
      </form>
      {query.trim() ? <SearchResults query={query.trim()} /> : <Sections list={list} scroller={scroller} />}
    </nav>
  );
}

function Sections({ list, scroller }: { list: ChatList; scroller: React.RefObject<HTMLElement | null> }) {
  if (!list.ready) return <p role="status" className="muted">Loading your chats…</p>;
  const empty = list.pinned.length + list.recent.length + list.archived.length === 0;
  return (
    <>
      <FormAlert problem={list.problem} />
      {empty && !list.problem && <p className="muted">Your chats will be listed here.</p>}
      <Section title="Pinned" chats={list.pinned} onChange={list.apply} />
      <Section title="Recent" chats={list.recent} onChange={list.apply} />
      {list.hasMore && <MoreChats list={list} scroller={scroller} />}
      {list.archived.length > 0 && (
        <details className="archived">
          <summary>Recently archived ({list.archived.length})</summary>
          <ul className="chat-list" aria-label="Recently archived">
            {list.archived.map((c) => (
              <ChatItem key={c.chat_id} chat={c} onChange={list.apply} />
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

function Section({ title, chats, onChange }: { title: string; chats: ChatSummary[]; onChange: (chat: ChatSummary) => void }) {
  const id = useId();
  if (chats.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="chat-list">
        {chats.map((c) => (
          <ChatItem key={c.chat_id} chat={c} onChange={onChange} />
        ))}
      </ul>
    </section>
  );
}

/** The end of the loaded list: reaching it (by scrolling) loads the next page; the button does too. */
function MoreChats({ list, scroller }: { list: ChatList; scroller: React.RefObject<HTMLElement | null> }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { loadMore } = list;
  useEffect(() => {
    if (!sentinel.current || !scroller.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), { root: scroller.current, rootMargin: '0px 0px 200px 0px' });
    observer.observe(sentinel.current);
    return () => observer.disconnect();
  }, [loadMore, scroller]);
  return (
    <div ref={sentinel} className="more-chats">
      <button type="button" className="link" disabled={list.loadingMore} onClick={() => void loadMore()}>
        {list.loadingMore ? 'Loading more chats…' : 'Show older chats'}
      </button>
    </div>
  );
}
