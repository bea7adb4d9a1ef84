#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package.
//   node bench/lib/profile-summary.mjs FILE.cpuprofile [TOP=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.mjs FILE.cpuprofile [TOP]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const pkgOf = (url) => {
  if (!url) return '(native)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const w = url.match(/\/(services|libs)\/([^/]+)\//);
  return w ? `${w[1]}/${w[2]}` : url;
};
const fn = new Map();
const pkg = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const name = `${cf.functionName || '(anonymous)'} ${pkgOf(cf.url)}:${cf.lineNumber + 1}`;
  fn.set(name, (fn.get(name) ?? 0) + us);
  const p = cf.url ? pkgOf(cf.url) : cf.functionName || '(native)';
  pkg.set(p, (pkg.get(p) ?? 0) + us);
}
const show = (title, map) => {
  process.stdout.write(`${title}\n`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(2)} s sampled\n`);
show('by package', pkg);
show('by function (self)', fn);
