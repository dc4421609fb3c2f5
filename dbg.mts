import { createReadStream } from 'node:fs';
import { WARCParser } from 'warcio';
const stream = createReadStream(process.argv[2]);
stream.on('end', () => console.log('end')); stream.on('close', () => console.log('close')); stream.on('error', (e) => console.log('err', e.message));
const p = new WARCParser(stream);
let n = 0;
const keep = setInterval(() => {}, 1000);
setTimeout(() => { console.log('timeout n=', n); process.exit(0); }, 3000);
try { for await (const r of p) { await r.skipFully(); n++; } console.log('done', n); } catch (e) { console.log('threw', (e as Error).message); }
clearInterval(keep);
