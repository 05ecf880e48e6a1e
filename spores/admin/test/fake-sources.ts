import type {
  Inoculation,
  InoculationRequest,
  NewSource,
  OfferedSpore,
  PluginInfo,
  SourceInfo,
  SourcePatch,
  UninstallOptions,
} from '@mycelo/septum'
import { RefusalError, SEPTUM_VERSION, septumIncompatibility } from '@mycelo/septum'

interface Installed {
  source: string
  strain: string
  /** The strain an upgrade replaced, for a roll back. */
  previous?: string
}

/**
 * sources.manage in memory, rejecting with the core's own `common` refusal keys. The plugins
 * list is the one plugins.read answers, so an install shows there as the core's does.
 */
export class FakeSources {
  refusalDomain = 'common'
  readonly plugins: PluginInfo[] = []
  readonly sources: SourceInfo[] = [
    {
      id: 'official',
      label: 'Mycelo',
      url: 'https://github.com/mycelo/spores',
      trust: 'official',
      enabled: true,
    },
  ]
  /** What each source offers, strains newest first. */
  readonly offers = new Map<string, OfferedSpore[]>([
    [
      'official',
      [
        {
          name: 'films',
          kind: 'enzyme',
          description: 'Queue films on Radarr',
          strains: [
            { strain: '2.0.0', septum: '^2.0', published: '2026-11-20T12:00:00Z' },
            { strain: '1.1.0', septum: '^1.0', published: '2026-11-10T12:00:00Z' },
            { strain: '1.0.0', septum: '^1.0' },
          ],
        },
        { name: 'quiet', kind: 'inhibitor', strains: [{ strain: '0.1.0', septum: '^1.0' }] },
      ],
    ],
  ])
  readonly installs = new Map<string, Installed>()
  /** Every request inoculate received, in order. */
  readonly inoculated: InoculationRequest[] = []

  protected rejectWith(key: string, params: Record<string, unknown>): never {
    throw new RefusalError({ domain: this.refusalDomain, key: `refusal.${key}`, params })
  }

  private source(id: string): SourceInfo {
    return (
      this.sources.find((source) => source.id === id) ?? this.rejectWith('source_unknown', { source: id })
    )
  }

  private usable(id: string): SourceInfo {
    const source = this.source(id)
    if (!source.enabled) this.rejectWith('source_disabled', { source: id })
    return source
  }

  async listSources(): Promise<readonly SourceInfo[]> {
    return this.sources
  }
  async addSource(source: NewSource): Promise<SourceInfo> {
    if (!source.url.startsWith('https://')) this.rejectWith('source_url_scheme', { url: source.url })
    const added: SourceInfo = {
      id: source.label.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      label: source.label,
      url: source.url,
      trust: 'third-party',
      enabled: source.enabled ?? true,
      ...(source.token ? { token: '••••' } : {}),
      ...(source.publisherKey ? { publisherKey: source.publisherKey } : {}),
    }
    this.sources.push(added)
    return added
  }
  async updateSource(id: string, patch: SourcePatch): Promise<SourceInfo> {
    const index = this.sources.findIndex((source) => source.id === this.source(id).id)
    const { token, ...rest } = patch
    const current = this.sources[index] as SourceInfo
    const { token: _kept, ...withoutToken } = current
    const tokened = token === undefined || token === '••••' ? current.token !== undefined : token !== ''
    const updated: SourceInfo = { ...withoutToken, ...rest, ...(tokened ? { token: '••••' } : {}) }
    this.sources[index] = updated
    return updated
  }
  async deleteSource(id: string): Promise<void> {
    const source = this.source(id)
    if (source.trust === 'official') this.rejectWith('source_official_delete', { source: id })
    this.sources.splice(this.sources.indexOf(source), 1)
  }
  async offered(sourceId: string): Promise<readonly OfferedSpore[]> {
    this.usable(sourceId)
    return this.offers.get(sourceId) ?? []
  }
  async inoculate(request: InoculationRequest): Promise<Inoculation> {
    this.inoculated.push(request)
    const { source, spore: name } = request
    const spore = (await this.offered(source)).find((offer) => offer.name === name)
    if (spore === undefined) this.rejectWith('sporangium_spore_unknown', { spore: name, source })
    const strain = request.strain ?? spore.strains.find((offer) => offer.septum === '^1.0')?.strain
    if (strain === undefined || !spore.strains.some((offer) => offer.strain === strain))
      this.rejectWith('sporangium_strain_unknown', { spore: name, strain, source })
    const previous = this.installs.get(name)
    this.installs.set(name, { source, strain, ...(previous ? { previous: previous.strain } : {}) })
    this.showInstalled(name, spore.kind)
    return { spore: name, strain, source, path: `/data/spores/${name}` }
  }
  /** The core's rule, on the fake's data: the newest release that runs here, never a step back. */
  async upgrade(spore: string): Promise<Inoculation> {
    const installed = this.installs.get(spore)
    if (installed === undefined) this.rejectWith('spore_not_installed', { spore })
    const { source, strain: current } = installed
    const offer = (await this.offered(source)).find((candidate) => candidate.name === spore)
    const newest = offer?.strains.find(
      (strain) => !strain.strain.includes('-') && septumIncompatibility(strain.septum) === undefined,
    )?.strain
    if (newest === undefined)
      this.rejectWith('sporangium_no_strain', { spore, source, septum: SEPTUM_VERSION })
    if (Bun.semver.order(newest, current) <= 0)
      this.rejectWith('upgrade_current', { spore, strain: current, source })
    return this.inoculate({ source, spore, strain: newest })
  }
  async rollBack(spore: string): Promise<Inoculation> {
    const installed = this.installs.get(spore)
    if (installed?.previous === undefined) this.rejectWith('strain_no_previous', { spore })
    this.installs.set(spore, { source: installed.source, strain: installed.previous })
    this.showInstalled(spore, 'enzyme')
    return { spore, strain: installed.previous, source: installed.source, path: `/data/spores/${spore}` }
  }
  /** How each uninstall was asked to treat the spore's stored data, in order. */
  readonly uninstalls: { spore: string; keepData: boolean | undefined }[] = []
  async uninstall(spore: string, options?: UninstallOptions): Promise<void> {
    if (!this.installs.delete(spore)) this.rejectWith('spore_not_installed', { spore })
    this.uninstalls.push({ spore, keepData: options?.keepData })
    this.plugins.splice(
      this.plugins.findIndex((plugin) => plugin.name === spore),
      1,
    )
  }

  /** Installed disabled, with the core's reason: what it is and what it asks for. */
  private showInstalled(name: string, kind: OfferedSpore['kind']): void {
    const { source, strain } = this.installs.get(name) as Installed
    const index = this.plugins.findIndex((plugin) => plugin.name === name)
    const shown: PluginInfo = {
      name,
      kind,
      state: 'disabled',
      enabled: index >= 0 ? (this.plugins[index] as PluginInfo).enabled : false,
      reason: `installed from ${source}, disabled: kind ${kind}; requires radarr; requests no mycelium scope`,
      source,
      strain,
    }
    if (index >= 0) this.plugins[index] = shown
    else this.plugins.push(shown)
  }
}
