import { connect } from './test/mcp/connect.ts'

const agent = await connect(new URL('http://127.0.0.1:18791/mcp'), { key: process.argv[2] })
console.log(await agent.execute('return (await env.plugins.read.listPlugins({})).map((p) => p.name)'))
await agent.close()
