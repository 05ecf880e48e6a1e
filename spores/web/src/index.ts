import type { HyphaModule } from '@mycelo/septum'
import { createWebHypha } from './hypha.ts'

export { createWebHypha, TEXT_LIMIT, WEB_CHANNEL, type WebHypha } from './hypha.ts'
export { KEPT_CONVERSATIONS, KEPT_PER_CONVERSATION, type Reply, ReplyBook } from './replies.ts'

export default { create: createWebHypha } satisfies HyphaModule
