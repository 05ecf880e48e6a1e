// Lists more than one screen reads, loaded the same way: empty where the session may not read them,
// so a screen names what it can and shows an id for the rest.
import { api } from '../api.ts'
import { useCan } from '../session.ts'
import type { AgentKey, Conversation } from '../types.ts'
import type { Words } from '../words.ts'
import { type Loaded, useLoad } from './load.ts'

export function useConversations(words: Words): Loaded<{ conversations: Conversation[] }> {
  const can = useCan()
  return useLoad(
    () =>
      can('admin.conversations')
        ? api<{ conversations: Conversation[] }>('/conversations')
        : Promise.resolve({ conversations: [] }),
    [],
    words,
  )
}

export function useAgentKeys(words: Words): Loaded<{ keys: AgentKey[] }> {
  const can = useCan()
  return useLoad(
    () =>
      can('admin.agent-keys') ? api<{ keys: AgentKey[] }>('/agent-keys') : Promise.resolve({ keys: [] }),
    [],
    words,
  )
}
