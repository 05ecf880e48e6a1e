// The screens, the hash each opens at, and which guarded actions let a session see it.
import type { ComponentType } from 'react'
import { AccessScreen } from './access.tsx'
import { ChatScreen } from './chat.tsx'
import { InstallScreen } from './install.tsx'
import { LogsScreen } from './logs.tsx'
import { OverviewScreen } from './overview.tsx'
import { PeopleScreen } from './people.tsx'
import { RulesScreen } from './rules.tsx'
import { SporesScreen } from './spores.tsx'

export type ScreenId = 'overview' | 'spores' | 'install' | 'people' | 'rules' | 'chat' | 'logs' | 'access'

export interface ScreenEntry {
  readonly id: ScreenId
  readonly component: ComponentType
  /** Shown when the session may do at least one thing on it. */
  allowed(allowed: readonly string[]): boolean
}

const any =
  (...patterns: string[]) =>
  (allowed: readonly string[]) =>
    patterns.some((pattern) => allowed.includes(pattern))

export const SCREENS: readonly ScreenEntry[] = [
  { id: 'overview', component: OverviewScreen, allowed: any('admin.plugins') },
  { id: 'spores', component: SporesScreen, allowed: any('admin.plugins') },
  { id: 'install', component: InstallScreen, allowed: any('admin.sources', 'admin.install') },
  { id: 'people', component: PeopleScreen, allowed: any('admin.people', 'admin.roles') },
  {
    id: 'rules',
    component: RulesScreen,
    allowed: any('admin.rules', 'admin.targets', 'admin.conversations'),
  },
  // Chat is the web spore's to refuse: anyone signed in may try it, as on any channel.
  { id: 'chat', component: ChatScreen, allowed: () => true },
  { id: 'logs', component: LogsScreen, allowed: any('admin.logs', 'admin.audit') },
  // Everyone signed in has sessions of their own to see and end; agents and export show by role.
  { id: 'access', component: AccessScreen, allowed: () => true },
]

export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split('/')[0]
  return (SCREENS.find((entry) => entry.id === id)?.id ?? 'overview') as ScreenId
}
