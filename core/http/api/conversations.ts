// Every conversation the bot has seen, as chat's /conversations lists them.

import { conversationsRead } from '../../mycelium/conversations.ts'
import { guardOf } from '../../mycelium/guards.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

export function conversationRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const conversations = conversationsRead(runtime)
  return [
    route({
      method: 'get',
      path: '/conversations',
      summary: 'Every conversation the bot has seen, with its kind and locale',
      guard: guardOf('conversations.read', 'listConversations'),
      handle: async ({ c }) => c.json({ conversations: await conversations.listConversations() }),
    }),
  ]
}
