// Cells run once in a throw-away interpreter while a new sandbox is idle, so that the host JVM has compiled the
// engine's interpreter, its builtins and the Graal compiler before the model's first cell, which then does not
// pay for it. They are the kinds of code models write: JSON, records, sorting, Map/Set, dates, regex, string
// building, classes, recursion and plain loops. Each "// cell" line starts a new cell; $K is replaced by the round,
// so every round is new source, as model code is. Keep them small: the whole corpus is a few seconds of CPU.
// cell
var warmRows = [];
for (var i = 0; i < 3000; i++) {
  warmRows.push({ id: i, name: 'item' + i, group: i % 7, price: (i * 37) % 1000 / 10, day: '2024-0' + (1 + i % 9) + '-1' + (i % 10) + 'T10:00:00Z', tags: ['a', 'b'] });
}
var warmText = JSON.stringify(warmRows);
warmText.length
// cell
const parsed$K = JSON.parse(warmText);
const groups$K = {};
for (const r of parsed$K) { const g = groups$K[r.group] ??= { n: 0, sum: 0 }; g.n++; g.sum += r.price; }
Object.entries(groups$K).map(([k, g]) => [k, g.n, Math.round(g.sum)])
// cell
const top$K = warmRows.filter((r) => r.price > 20).map((r) => ({ ...r, total: r.price * 2 })).sort((a, b) => b.total - a.total || a.id - b.id).slice(0, 10);
top$K.map((r) => r.id)
// cell
const m$K = new Map();
for (const r of warmRows) { let e = m$K.get(r.group); if (!e) { e = { names: new Set(), total: 0 }; m$K.set(r.group, e); } e.names.add(r.name.slice(0, 5)); e.total += r.price; }
[...m$K].map(([g, e]) => `${g}: ${e.names.size} ${e.total.toFixed(2)}`).join('; ')
// cell
const months$K = new Array(12).fill(0);
for (const r of warmRows) { const d = new Date(r.day); months$K[d.getUTCMonth()]++; }
[months$K.join(','), new Date(Date.UTC(2024, 1, 2)).toISOString(), Date.parse('2024-05-06T00:00:00Z')]
// cell
const re$K = /item(\d+)/;
let hits$K = 0;
for (const r of warmRows) { const m = re$K.exec(r.name); if (m && Number(m[1]) % 3 === 0) hits$K++; }
const words$K = warmText.slice(0, 20000).split(/[^a-z0-9]+/).filter((w) => w.length > 3);
[hits$K, words$K.length, warmText.slice(0, 5000).replace(/"(\w+)":/g, (_, k) => k.toUpperCase()).length]
// cell
class Acc$K {
  constructor(name) { this.name = name; this.items = []; }
  add(x) { this.items.push(x); return this; }
  get sum() { return this.items.reduce((a, b) => a + b, 0); }
  toString() { return `${this.name}=${this.sum.toFixed(1)}`; }
}
const accs$K = {};
for (const r of warmRows) (accs$K[r.group] ??= new Acc$K('g' + r.group)).add(r.price);
Object.values(accs$K).map(String).join(',')
// cell
function tree$K(d, s) { return d === 0 ? { v: s % 10, c: [] } : { v: s % 10, c: [tree$K(d - 1, s * 2), tree$K(d - 1, s * 2 + 1)] }; }
function sum$K(n) { let t = n.v; for (const c of n.c) t += sum$K(c); return t; }
let csv$K = 'id,name,price\n';
for (const r of warmRows) csv$K += [r.id, r.name, r.price.toFixed(2)].join(',') + '\n';
[sum$K(tree$K(10, 1)), csv$K.length, warmRows.reduce((acc, r) => ({ ...acc, [r.group]: (acc[r.group] || 0) + 1 }), {})]
// cell
let primes$K = 0;
for (let n = 2; n < 30000; n++) { let p = true; for (let d = 2; d * d <= n; d++) { if (n % d === 0) { p = false; break; } } if (p) primes$K++; }
const bytes$K = new Uint8Array(1000).map((_, i) => i & 255);
[primes$K, bytes$K.reduce((a, b) => a + b, 0), Math.max(...warmRows.slice(0, 100).map((r) => r.price))]
// cell
try { null.x; } catch (e) { e instanceof TypeError }
// cell
(async () => { const xs = await Promise.all([1, 2, 3].map(async (x) => x * 2)); return xs; })()
