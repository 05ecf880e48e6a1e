import { afterAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
  ensureDefaultRole,
  ensureOwner,
  ensurePrincipal,
  OWNER_ROLE,
  openStore,
  patternsOf,
  principalIdOf,
  roleNamesOf,
} from '../../store/index.ts'
import { channelIdentities, principals, roleCommands, roles } from '../../store/schema/index.ts'
import { scratchFolder } from './scratch.ts'

const scratch = scratchFolder('store-owner')
afterAll(() => scratch.remove())

describe('owner bootstrap', () => {
  it('creates the builtin owner role granting everything and binds the configured owner to it', () => {
    const store = openStore({ path: join(scratch.path, 'owner.db') })
    const { principalId } = ensureOwner(store, { channel: 'console', userId: 'owner' })
    expect(principalIdOf(store, { channel: 'console', externalId: 'owner' })).toBe(principalId)
    expect(roleNamesOf(store, principalId)).toEqual([OWNER_ROLE])
    expect(patternsOf(store, OWNER_ROLE)).toEqual(['*'])
    expect(store.db.select().from(roles).where(eq(roles.name, OWNER_ROLE)).get()?.builtin).toBe(true)
    store.close()
  })

  it('finds the same principal at every start and repairs an owner role left without `*`', () => {
    const path = join(scratch.path, 'restart.db')
    const first = openStore({ path })
    const { principalId } = ensureOwner(first, { channel: 'signal', userId: '+15550001' })
    first.db.delete(roleCommands).run()
    first.db.update(roles).set({ builtin: false }).run()
    first.close()

    const second = openStore({ path })
    expect(ensureOwner(second, { channel: 'signal', userId: '+15550001' })).toEqual({ principalId })
    expect(patternsOf(second, OWNER_ROLE)).toEqual(['*'])
    expect(second.db.select().from(principals).all()).toHaveLength(1)
    expect(second.db.select().from(roles).where(eq(roles.name, OWNER_ROLE)).get()?.builtin).toBe(true)
    second.close()
  })

  it('binds an existing principal met earlier on that channel rather than creating another', () => {
    const store = openStore({ path: join(scratch.path, 'existing.db') })
    const met = ensurePrincipal(store, { channel: 'discord', externalId: '42' })
    expect(met.created).toBe(true)
    expect(ensureOwner(store, { channel: 'discord', userId: '42' })).toEqual({ principalId: met.id })
    expect(roleNamesOf(store, met.id)).toEqual([OWNER_ROLE])
    store.close()
  })

  it('creates the default role with `help.*` and `admin.lang` once and leaves an existing one as the operator set it', () => {
    const store = openStore({ path: join(scratch.path, 'default-role.db') })
    ensureDefaultRole(store, 'member')
    expect(patternsOf(store, 'member')).toEqual(['admin.lang', 'help.*'])
    const member = store.db.select().from(roles).where(eq(roles.name, 'member')).get()!
    expect(member.builtin).toBe(false)
    store.db.delete(roleCommands).where(eq(roleCommands.roleId, member.id)).run()
    store.db.insert(roleCommands).values({ roleId: member.id, pattern: 'radarr.*' }).run()
    ensureDefaultRole(store, 'member')
    expect(patternsOf(store, 'member')).toEqual(['radarr.*'])
    store.close()
  })

  it('enforces one principal per channel identity and cascades a principal removal', () => {
    const store = openStore({ path: join(scratch.path, 'constraints.db') })
    const { principalId } = ensureOwner(store, { channel: 'console', userId: 'owner' })
    const other = ensurePrincipal(store, { channel: 'console', externalId: 'guest' })
    expect(() =>
      store.db
        .insert(channelIdentities)
        .values({ principalId: other.id, channel: 'console', externalId: 'owner' })
        .run(),
    ).toThrow(/UNIQUE constraint failed/)
    store.db.delete(principals).where(eq(principals.id, principalId)).run()
    expect(principalIdOf(store, { channel: 'console', externalId: 'owner' })).toBeUndefined()
    expect(roleNamesOf(store, principalId)).toEqual([])
    expect(store.db.$client.query('SELECT count(*) AS n FROM principal_roles').get()).toEqual({ n: 0 })
    store.close()
  })
})
