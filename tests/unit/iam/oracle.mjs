// Differential oracle for kit.iam: runs @cloud-copilot/iam-simulate (AGPL) as a separate
// process. It is installed by the test fixture into a cache directory outside the repository
// and is never imported by, or shipped with, the kit.
//
// Usage: node oracle.mjs INSTALL_DIR < simulations.json > results.json
// Input: a JSON array of iam-simulate Simulation objects.
// Output: a JSON array of {result, ignoredContextKeys, error} in the same order.
import { createRequire } from 'node:module'
import { join } from 'node:path'

const installDir = process.argv[2]
if (!installDir) {
  process.stderr.write('usage: node oracle.mjs INSTALL_DIR < simulations.json\n')
  process.exit(2)
}
const require = createRequire(join(installDir, 'package.json'))
const { runSimulation } = require('@cloud-copilot/iam-simulate')

let input = ''
process.stdin.setEncoding('utf8')
for await (const chunk of process.stdin) {
  input += chunk
}

const results = []
for (const simulation of JSON.parse(input)) {
  try {
    const response = await runSimulation(simulation, { simulationMode: 'Strict' })
    if (response.resultType === 'error') {
      results.push({ result: null, error: response.errors })
    } else if (response.resultType === 'single') {
      results.push({
        result: response.overallResult,
        ignoredContextKeys: response.result.ignoredContextKeys || []
      })
    } else {
      results.push({ result: response.overallResult, ignoredContextKeys: [] })
    }
  } catch (error) {
    results.push({ result: null, error: String(error && error.stack ? error.stack : error) })
  }
}
process.stdout.write(JSON.stringify(results))
