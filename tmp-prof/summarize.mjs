import fs from "node:fs";
const files = fs.readdirSync(".").filter((f) => f.endsWith(".cpuprofile")).slice(0, 1);
for (const file of files) {
const p = JSON.parse(fs.readFileSync(file));
const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = p.timeDeltas; const counts = new Map();
p.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
let total = 0;
for (const [id, t] of counts) { const n = byId.get(id); const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`; self.set(key, (self.get(key) ?? 0) + t); total += t; }
console.log(file, "total ms", (total / 1000).toFixed(0));
[...self].sort((a, b) => b[1] - a[1]).slice(0, 30).forEach(([k, t]) => console.log((t / 1000).toFixed(1).padStart(8), k));
}
