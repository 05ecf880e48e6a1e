/** A key in a named catalogue domain, with the values it interpolates. */
export interface TranslatableRef {
  readonly domain: string
  readonly key: string
  readonly params?: Readonly<Record<string, unknown>>
}

/**
 * Renders a key. A bare string resolves in the calling spore's own domain; a ref may name the
 * caller's domain, `common`, or a rhiza the manifest requires. Any other domain throws.
 */
export type Translate = (
  key: string | TranslatableRef,
  params?: Readonly<Record<string, unknown>>,
  locale?: string,
) => string

/** A parsed translation file: nested objects of strings. */
export interface Catalog {
  readonly [key: string]: string | Catalog | null | undefined
}
