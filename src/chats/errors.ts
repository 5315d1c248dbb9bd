// Failures of the chats domain. A chat the caller may not see is reported exactly like a missing
// one, so ids of other people's chats reveal nothing.
import { AppError, Forbidden, NotFound } from '../errors.ts';

export class ChatNotFound extends NotFound {
  constructor() {
    super('Chat not found', 'CHAT_NOT_FOUND');
  }
}

export class MessageNotFound extends NotFound {
  constructor() {
    super('Message not found', 'MESSAGE_NOT_FOUND');
  }
}

export class ShareNotFound extends NotFound {
  constructor() {
    super('Shared chat not found', 'SHARE_NOT_FOUND');
  }
}

export class LineageUnavailable extends AppError {
  constructor(message = 'Lineage is not available') {
    super('unavailable', 'LINEAGE_UNAVAILABLE', message);
  }
}

/** A non-admin asked for another member's history (filter_user_id). */
export class ExportOfOthersForbidden extends Forbidden {
  constructor() {
    super("Only admins export other members' history", 'EXPORT_OF_OTHERS_FORBIDDEN');
  }
}
