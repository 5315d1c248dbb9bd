// The typed errors of starting and following runs.
import { AppError, Conflict, NotFound } from '../../errors.ts';

/** Another user's chat, or none: the same answer, so chats cannot be probed. */
export class ChatNotFound extends NotFound {
  constructor() {
    super('Chat not found', 'CHAT_NOT_FOUND');
  }
}

/** A question in a chat whose previous question is still being answered (by any replica). */
export class RunInProgress extends Conflict {
  constructor() {
    super('A run is already in progress in this chat', 'RUN_IN_PROGRESS');
  }
}

/** A question asked while the service drains before shutdown: another replica (or this one, restarted) answers it. */
export class ServiceShuttingDown extends AppError {
  constructor() {
    super('unavailable', 'SERVICE_SHUTTING_DOWN', 'The service is shutting down; ask again in a moment');
  }
}
