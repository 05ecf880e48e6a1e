// Deliveries shaped as GitHub documents its push and release webhook payloads (trimmed to the
// fields a reader of them needs; GitHub sends many more, which the spore must ignore).
export function pushPayload(commits: number) {
  return {
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: 'f'.repeat(40),
    repository: { id: 1, name: 'mycelo', full_name: 'navino16/mycelo', private: false },
    pusher: { name: 'octocat', email: 'octocat@example.com' },
    sender: { login: 'octocat', id: 1 },
    compare: 'https://github.com/navino16/mycelo/compare/000000000000...ffffffffffff',
    commits: Array.from({ length: commits }, (_, index) => ({
      id: `${index}abcdef0123456789abcdef0123456789abcdef`.slice(0, 40),
      message: `Change number ${index + 1}\n\nWith a body nobody reads in chat`,
      timestamp: '2026-11-30T12:00:00Z',
      author: { name: 'Mona Lisa', email: 'mona@example.com', username: 'mona' },
      url: `https://github.com/navino16/mycelo/commit/${index}`,
    })),
    head_commit: null,
  }
}

export function releasePayload(action: string, prerelease = false) {
  return {
    action,
    release: {
      id: 7,
      tag_name: 'v1.1.0',
      name: 'Storage and schedules',
      draft: false,
      prerelease,
      html_url: 'https://github.com/navino16/mycelo/releases/tag/v1.1.0',
      body: 'Notes',
    },
    repository: { id: 1, full_name: 'navino16/mycelo' },
    sender: { login: 'octocat' },
  }
}
