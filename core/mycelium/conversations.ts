import type { ConversationsRead } from '@mycelo/septum'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'

export function conversationsRead(runtime: CoreRuntime): ConversationsRead {
  return {
    async listConversations() {
      return runtime.conversations.list()
    },
  }
}
