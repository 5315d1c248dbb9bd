// The person's chats as the history sidebar and the chat pages share them: pinned, recent (in keyset
// pages, loaded as the list scrolls) and recently archived. A change the server confirmed (pin,
// archive, labels, badge) moves the chat here at once; `refresh` reads the first page again.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';

export type ChatSummary = ResponseOf<'/api/chat_history', 'get'>['chats'][number];

/** Chats per page of the list. */
const PAGE = 30;
/** How often the first page is read again while a chat left running is watched, and for how long at most. */
const WATCH_EVERY_MS = 4000;
const WATCH_AT_MOST_MS = 15 * 60_000;

interface Lists {
  pinned: ChatSummary[];
  recent: ChatSummary[];
  archived: ChatSummary[];
}

export interface ChatList extends Lists {
  /** False until the first page arrived. */
  ready: boolean;
  /** More recent chats exist beyond those loaded. */
  hasMore: boolean;
  loadingMore: boolean;
  problem: ApiProblem | undefined;
  loadMore: () => Promise<void>;
  refresh: () => Promise<void>;
  /** Puts a chat where its flags say (after a change the server confirmed). */
  apply: (chat: ChatSummary) => void;
  /** The person left this chat while its answer ran: the list is read again until the answer is marked. */
  watch: (chatId: string) => void;
  find: (chatId: string) => ChatSummary | undefined;
}

const ChatListContext = createContext<ChatList | undefined>(undefined);

const newestFirst = (a: ChatSummary, b: ChatSummary) => b.created_at - a.created_at;

/** The lists with `chat` moved to the section its flags name (or updated in place). */
function place(lists: Lists, chat: ChatSummary): Lists {
  const without = (l: ChatSummary[]) => l.filter((c) => c.chat_id !== chat.chat_id);
  const next = { pinned: without(lists.pinned), recent: without(lists.recent), archived: without(lists.archived) };
  const inPlace = (l: ChatSummary[], sort: boolean) => {
    const at = l.findIndex((c) => c.chat_id === chat.chat_id);
    if (at >= 0) return l.map((c) => (c.chat_id === chat.chat_id ? chat : c));
    const added = [chat, ...without(l)];
    return sort ? added.sort(newestFirst) : added;
  };
  if (chat.pinned) next.pinned = inPlace(lists.pinned, false);
  else if (chat.archived) next.archived = inPlace(lists.archived, false);
  else next.recent = inPlace(lists.recent, true);
  return next;
}

export function ChatListProvider({ children }: { children: ReactNode }) {
  const [lists, setLists] = useState<Lists>({ pinned: [], recent: [], archived: [] });
  const [ready, setReady] = useState(false);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const loading = useRef(false);
  // Pages past the first were loaded: a refresh of the first page keeps the cursor where it is.
  const deeper = useRef(false);

  const refresh = useCallback(async () => {
    try {
      const first = await call(api.GET('/api/chat_history', { params: { query: { limit: PAGE } } }));
      setLists((old) => {
        // Older pages already loaded stay, below the fresh first page.
        const fresh = new Set([...first.chats, ...first.pinned, ...first.archived].map((c) => c.chat_id));
        const oldest = first.chats.at(-1)?.created_at ?? Infinity;
        const kept = old.recent.filter((c) => !fresh.has(c.chat_id) && c.created_at < oldest);
        return { pinned: first.pinned, recent: [...first.chats, ...kept], archived: first.archived };
      });
      if (!deeper.current) setCursor(first.next_cursor);
      setProblem(undefined);
    } catch (err) {
      setProblem(err instanceof ApiProblem ? err : undefined);
    } finally {
      setReady(true);
    }
  }, []);

  const loadMore = useCallback(async () => {
    if (loading.current || cursor === null) return;
    loading.current = true;
    setLoadingMore(true);
    try {
      const page = await call(api.GET('/api/chat_history', { params: { query: { limit: PAGE, cursor } } }));
      setLists((old) => {
        const known = new Set(old.recent.map((c) => c.chat_id));
        return { ...old, recent: [...old.recent, ...page.chats.filter((c) => !known.has(c.chat_id))] };
      });
      setCursor(page.next_cursor);
      deeper.current = true;
      setProblem(undefined);
    } catch (err) {
      setProblem(err instanceof ApiProblem ? err : undefined);
    } finally {
      loading.current = false;
      setLoadingMore(false);
    }
  }, [cursor]);

  useEffect(() => {
    void refresh();
    // Back to the tab: answers may have finished meanwhile.
    const onVisible = () => document.visibilityState === 'visible' && void refresh();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);

  const [watched, setWatched] = useState<Map<string, number>>(new Map());
  const watch = useCallback((chatId: string) => setWatched((w) => new Map(w).set(chatId, Date.now() + WATCH_AT_MOST_MS)), []);
  useEffect(() => {
    if (watched.size === 0) return;
    const timer = setInterval(() => void refresh(), WATCH_EVERY_MS);
    return () => clearInterval(timer);
  }, [watched.size, refresh]);
  useEffect(() => {
    // A watched chat is done once its answer is marked (or the watch ran out of time).
    const all = [...lists.pinned, ...lists.recent, ...lists.archived];
    const done = [...watched].filter(([id, until]) => until < Date.now() || all.some((c) => c.chat_id === id && c.recently_completed));
    if (done.length > 0) setWatched((w) => new Map([...w].filter(([id]) => !done.some(([d]) => d === id))));
  }, [lists, watched]);

  const apply = useCallback((chat: ChatSummary) => setLists((l) => place(l, chat)), []);
  const find = useCallback((chatId: string) => [...lists.pinned, ...lists.recent, ...lists.archived].find((c) => c.chat_id === chatId), [lists]);
  const value = useMemo(
    () => ({ ...lists, ready, hasMore: cursor !== null, loadingMore, problem, loadMore, refresh, apply, watch, find }),
    [lists, ready, cursor, loadingMore, problem, loadMore, refresh, apply, watch, find],
  );
  return <ChatListContext.Provider value={value}>{children}</ChatListContext.Provider>;
}

export function useChatList(): ChatList {
  const list = useContext(ChatListContext);
  if (!list) throw new Error('useChatList outside ChatListProvider');
  return list;
}
