// People and roles: each principal with their identities and roles, grant and revoke; each role
// with its command patterns, and a preview of the commands a set of patterns allows.
import { useState } from 'react'
import { api, part } from '../api.ts'
import { Badge, Notice, Section } from '../parts/bits.tsx'
import { Listing } from '../parts/listing.tsx'
import { useAction, useLoad } from '../parts/load.ts'
import { useCan } from '../session.ts'
import type { Principal, Role } from '../types.ts'
import { useWords } from '../words.ts'
import { RolesSection } from './roles.tsx'

export function PeopleScreen() {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const people = useLoad(
    () =>
      can('admin.people')
        ? api<{ principals: Principal[] }>('/principals')
        : Promise.resolve({ principals: [] }),
    [],
    words,
  )
  const roles = useLoad(
    () => (can('admin.roles') ? api<{ roles: Role[] }>('/roles') : Promise.resolve({ roles: [] })),
    [],
    words,
  )
  const action = useAction(words, people.reload)
  const list = people.data?.principals ?? []
  const nameOf = (principal: Principal) =>
    principal.displayName ??
    principal.identities[0]?.displayName ??
    principal.identities[0]?.externalId ??
    principal.id

  return (
    <>
      <h1>{t('people.title')}</h1>
      <Notice notice={action.notice} />
      {can('admin.people') ? (
        <Section title={t('people.list.title')} hint={t('people.list.hint')}>
          <Listing
            load={people}
            count={list.length}
            empty={{ title: t('people.empty'), text: t('people.emptyText') }}
            columns={['person', 'identities', 'roles']}
            actions
          >
            {list.map((principal) => (
              <tr key={principal.id}>
                <th scope="row">
                  {nameOf(principal)}{' '}
                  {principal.reviewed ? null : <Badge tone="warn">{t('people.unreviewed')}</Badge>}
                  <span className="sub mono small">{principal.id}</span>
                </th>
                <td>
                  <ul className="plain">
                    {principal.identities.map((identity) => (
                      <li key={`${identity.channel}:${identity.externalId}`}>
                        <Badge tone="muted">{identity.channel}</Badge>{' '}
                        <span className="mono small">{identity.externalId}</span>
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  <ul className="chips" aria-label={t('people.rolesOf', { person: nameOf(principal) })}>
                    {principal.roles.length === 0 ? <li className="sub">{t('people.noRoles')}</li> : null}
                    {principal.roles.map((role) => (
                      <li key={role} className="chip">
                        {role}
                        {can('admin.revoke') ? (
                          <button
                            type="button"
                            className="chip-x"
                            aria-label={t('people.revoke', { role, person: nameOf(principal) })}
                            onClick={() =>
                              action.run(
                                'revoke',
                                () =>
                                  api(`/principals/${part(principal.id)}/roles/${part(role)}`, {
                                    method: 'DELETE',
                                  }),
                                t('people.revoked', { role, person: nameOf(principal) }),
                              )
                            }
                          >
                            ×
                          </button>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="actions">
                  {can('admin.grant') && roles.data ? (
                    <GrantRole
                      person={nameOf(principal)}
                      roles={roles.data.roles.filter((role) => !principal.roles.includes(role.name))}
                      grant={(role) =>
                        action.run(
                          'grant',
                          () => api(`/principals/${part(principal.id)}/roles`, { body: { role } }),
                          t('people.granted', { role, person: nameOf(principal) }),
                        )
                      }
                    />
                  ) : null}
                  {can('admin.rename') ? (
                    <Rename
                      person={nameOf(principal)}
                      current={principal.displayName ?? ''}
                      rename={(displayName) =>
                        action.run(
                          'rename',
                          () =>
                            api(`/principals/${part(principal.id)}/name`, {
                              method: 'PUT',
                              body: { displayName },
                            }),
                          t('people.renamed', {
                            person: displayName === '' ? nameOf(principal) : displayName,
                          }),
                        )
                      }
                    />
                  ) : null}
                  {!principal.reviewed && can('admin.review') ? (
                    <button
                      type="button"
                      onClick={() =>
                        action.run(
                          'review',
                          () => api(`/principals/${part(principal.id)}/review`, { method: 'POST' }),
                          t('people.reviewedDone', { person: nameOf(principal) }),
                        )
                      }
                    >
                      {t('action.markReviewed')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </Listing>
        </Section>
      ) : null}
      {can('admin.roles') ? <RolesSection roles={roles} /> : null}
    </>
  )
}

/** A display name of the bot's own for a person; an empty one shows the channel's name again. */
function Rename({
  person,
  current,
  rename,
}: {
  readonly person: string
  readonly current: string
  readonly rename: (displayName: string) => Promise<boolean>
}) {
  const { t } = useWords()
  const [open, setOpen] = useState(false)
  const [name, setName] = useState(current)
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} aria-label={t('people.renameOne', { person })}>
        {t('action.rename')}
      </button>
    )
  }
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        void rename(name.trim()).then((done) => done && setOpen(false))
      }}
    >
      <input
        value={name}
        onChange={(event) => setName(event.target.value)}
        aria-label={t('people.nameOf', { person })}
        placeholder={t('people.namePlaceholder')}
      />
      <button type="submit" className="primary">
        {t('action.save')}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        {t('action.cancel')}
      </button>
    </form>
  )
}

function GrantRole({
  person,
  roles,
  grant,
}: {
  readonly person: string
  readonly roles: readonly Role[]
  readonly grant: (role: string) => void
}) {
  const { t } = useWords()
  const [role, setRole] = useState('')
  if (roles.length === 0) return null
  return (
    <span className="inline-form">
      <select
        value={role}
        onChange={(event) => setRole(event.target.value)}
        aria-label={t('people.grantRoleTo', { person })}
      >
        <option value="">{t('people.pickRole')}</option>
        {roles.map((one) => (
          <option key={one.name} value={one.name}>
            {one.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={role === ''}
        onClick={() => grant(role)}
        aria-label={t('people.grantTo', { person })}
      >
        {t('action.grant')}
      </button>
    </span>
  )
}
