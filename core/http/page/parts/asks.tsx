// What a spore asks for, in plain words: its kind, the rhizas it needs, and each mycelium scope
// (what it may do to the bot itself), so an operator knows before switching it on.
import type { SporeNeeds } from '../types.ts'
import { useWords } from '../words.ts'

const MYCELIUM = 'mycelium'

export function SporeAsks({ needs }: { readonly needs: SporeNeeds }) {
  const { t } = useWords()
  const scopes = needs.requires
    .filter((need) => need.rhizas.includes(MYCELIUM))
    .flatMap((need) => need.scopes)
  const others = needs.requires.filter((need) => !need.rhizas.includes(MYCELIUM))
  return (
    <section className="asks" aria-label={t('asks.title', { spore: needs.name })}>
      <p>{t(`asks.kind.${needs.kind ?? 'unknown'}`, { spore: needs.name })}</p>
      {others.length === 0 && scopes.length === 0 ? <p>{t('asks.nothing')}</p> : null}
      {others.length > 0 ? (
        <ul>
          {others.map((need) => (
            <li key={need.rhizas.join('|')}>
              {t(need.optional ? 'asks.rhizaOptional' : 'asks.rhiza', {
                rhizas: need.rhizas.join(` ${t('asks.or')} `),
              })}
            </li>
          ))}
        </ul>
      ) : null}
      {scopes.length > 0 ? (
        <>
          <p className="asks-warn">{t('asks.scopes', { count: scopes.length })}</p>
          <ul>
            {scopes.map((scope) => (
              <li key={scope}>
                <code>{scope}</code> — {t(`scope.${scope}`)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {needs.commands.length > 0 ? (
        <p>{t('asks.commands', { commands: needs.commands.map((command) => `/${command}`).join(', ') })}</p>
      ) : null}
    </section>
  )
}
