import { describe, expect, it } from 'bun:test'
import { DEFAULT_BODY_LIMIT, MAX_BODY_LIMIT, parseManifest } from '../src/index.ts'
import { expectRefusal, rhiza } from './manifest-refusal.ts'

const route = (fields: Record<string, unknown> = {}) => ({
  method: 'POST',
  path: '/hook/:id',
  access: 'public',
  code: 'hook',
  ...fields,
})
const withRoutes = (...routes: unknown[]) => rhiza({ routes })

describe('manifest routes (septum 1.1)', () => {
  it('accepts a route and applies the default body limit', () => {
    const manifest = parseManifest(
      withRoutes(route(), route({ method: 'GET', path: '/', access: 'operator' })),
    )
    expect(manifest.routes).toEqual([
      { method: 'POST', path: '/hook/:id', access: 'public', code: 'hook', bodyLimit: DEFAULT_BODY_LIMIT },
      { method: 'GET', path: '/', access: 'operator', code: 'hook', bodyLimit: DEFAULT_BODY_LIMIT },
    ])
  })

  it('leaves a 1.0 manifest without routes as it was', () => {
    expect('routes' in parseManifest(rhiza())).toBe(false)
  })

  it('accepts a body limit up to 10 MiB', () => {
    expect(parseManifest(withRoutes(route({ bodyLimit: MAX_BODY_LIMIT }))).routes?.[0]?.bodyLimit).toBe(
      MAX_BODY_LIMIT,
    )
  })

  it('refuses routes that are not a list', () => {
    expectRefusal(rhiza({ routes: 'hook' }), 'routes', 'must be a list of routes')
  })

  it('refuses an unknown method, naming it', () => {
    expectRefusal(withRoutes(route({ method: 'TRACE' })), 'routes.0.method', '"TRACE" is not a route method')
  })

  it('refuses a missing method', () => {
    const { method: _, ...rest } = route()
    expectRefusal(withRoutes(rest), 'routes.0.method', 'is missing')
  })

  it('refuses a path that does not start with a slash', () => {
    expectRefusal(withRoutes(route({ path: 'hook' })), 'routes.0.path', 'must start with /')
  })

  it('refuses an empty segment and a wildcard', () => {
    expectRefusal(withRoutes(route({ path: '/a//b' })), 'routes.0.path', 'the segment ""')
    expectRefusal(withRoutes(route({ path: '/a/*' })), 'routes.0.path', 'the segment "*"')
  })

  it('refuses a param used twice', () => {
    expectRefusal(withRoutes(route({ path: '/:id/x/:id' })), 'routes.0.path', '":id" is used twice')
  })

  it('refuses an unknown access', () => {
    expectRefusal(withRoutes(route({ access: 'admin' })), 'routes.0.access', '"admin" is not a route access')
  })

  it('refuses an empty code', () => {
    expectRefusal(withRoutes(route({ code: '' })), 'routes.0.code', 'must not be empty')
  })

  it('refuses a body limit over 10 MiB, negative or fractional', () => {
    expectRefusal(withRoutes(route({ bodyLimit: MAX_BODY_LIMIT + 1 })), 'routes.0.bodyLimit', 'at most')
    expectRefusal(withRoutes(route({ bodyLimit: -1 })), 'routes.0.bodyLimit', 'must not be negative')
    expectRefusal(withRoutes(route({ bodyLimit: 1.5 })), 'routes.0.bodyLimit', 'whole number')
    expectRefusal(withRoutes(route({ bodyLimit: '1MB' })), 'routes.0.bodyLimit', 'must be a number of bytes')
  })

  it('refuses an unknown route field', () => {
    expectRefusal(withRoutes(route({ secret: 'x' })), 'routes.0.secret', 'is not a route field')
  })

  it('refuses two routes with the same method and path shape', () => {
    expectRefusal(
      withRoutes(route(), route({ path: '/hook/:other', code: 'other' })),
      'routes.1.path',
      'is declared twice',
    )
  })
})
