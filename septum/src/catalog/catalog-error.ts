export interface CatalogErrorOptions {
  readonly locale: string
  /** The dotted key at fault; empty when the fault concerns the whole file. */
  readonly key: string
  /** What is wrong with it, e.g. an ICU error code with its position. */
  readonly reason: string
  readonly cause?: unknown
}

/** A translation file that cannot be used; names the locale and the key at fault. */
export class CatalogError extends Error {
  readonly locale: string
  readonly key: string
  readonly reason: string

  constructor(options: CatalogErrorOptions) {
    const where =
      options.key === ''
        ? `catalogue "${options.locale}"`
        : `catalogue "${options.locale}", key "${options.key}"`
    super(`${where}: ${options.reason}`, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'CatalogError'
    this.locale = options.locale
    this.key = options.key
    this.reason = options.reason
  }
}
