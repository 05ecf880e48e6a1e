import type { EnzymeContext, Handler, Mycelium } from '@mycelo/septum'

/** The scopes spore.yaml requests: the mycelium object carries exactly these methods. */
export type AdminScope =
  | 'plugins.read'
  | 'health.read'
  | 'principals.read'
  | 'principals.manage'
  | 'roles.read'
  | 'roles.assign'
  | 'roles.manage'
  | 'plugins.toggle'
  | 'plugins.configure'
  | 'messages.broadcast'
  | 'conversations.read'
  | 'restrictions.manage'
  | 'locale.manage'
  | 'sources.manage'
  | 'web.login'

export type AdminMycelium = Mycelium<AdminScope>

export type AdminContext = EnzymeContext

/** One command group's handlers, keyed by the manifest's `code:` names. */
export type Handlers = Readonly<Record<string, Handler>>

export function myceliumOf(ctx: AdminContext): AdminMycelium {
  return ctx.rhiza<AdminMycelium>('mycelium')
}
