// The frame of the Ask pages: the chat history beside the chat. On a narrow screen the history
// folds away behind a button.
import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ChatListProvider } from './chat-list.tsx';
import { HistorySidebar } from './history-sidebar.tsx';

export function ChatsLayout() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <ChatListProvider>
      <div className={open ? 'chats-layout history-open' : 'chats-layout'}>
        <HistorySidebar />
        <div className="chats-main">
          <button type="button" className="history-toggle" aria-controls="chat-history" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? 'Hide chat history' : 'Chat history'}
          </button>
          <Outlet />
        </div>
      </div>
    </ChatListProvider>
  );
}
