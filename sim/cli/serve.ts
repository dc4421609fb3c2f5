/**
 * npm run sim -- --web F --seed S --port P : serve a generated web on 127.0.0.1;
 * npm run sim -- --warc FILE [--warc ...] : serve web archives instead.
 */
import { existsSync } from 'node:fs';
import { ArchiveWeb, DEFAULT_DOCUMENT_EXTENSIONS, HOLE_POLICIES, type HolePolicy } from '../archive-web.ts';
import { ReplayServer } from '../archive-server.ts';
import { SimServer } from '../server.ts';
import { WarcArchive } from '../warc-index.ts';
import { Web } from '../web.ts';
import { type CliIo, failed, intFlag, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { webAndSeed } from './args.ts';
import { WebSchema } from '../config.ts';
import { schemaHelp } from '../../lib/schema.ts';

const USAGE = `Usage: npm run sim -- [--web data/webs/paper.json] [--seed 1] [--port 0] [--no-faults]
       npm run sim -- --warc FILE.warc.gz [--warc ...] [--port 0] [--holes open|closed] [--documents]

Serves the synthetic web on 127.0.0.1 (port 0 = any free port). Every host is a virtual host:
  curl -H 'Host: cs.alpha-university.test' http://127.0.0.1:PORT/
Admin routes on the bare address: /_sim/audit, /_sim/hosts, POST /_sim/reset.
With --warc, serves the archives instead: every archived response at its original URL, 404 for
the rest. --documents serves linked .pdf/.ps/.ps.Z/.ps.gz/.dvi files the archive lacks as
placeholders (status 200, no text); --holes closed offers no link to a URL that is neither
archived nor such a document (sim/archive-web.ts; default open: the archive as it is).

Fields of a web config (sim/config.ts WebSchema; a config file sets any of them, and editors check
one that names "$schema": "../../schemas/web.schema.json"), with default, range and help:
${schemaHelp(WebSchema)}`;
export async function main(argv: string[], io: CliIo): Promise<number> {
  // npm does not pass SIGTERM on to the script it started: when the process that started this one
  // (npm, a shell) goes away, this one is re-parented and stops rather than serve on unseen. The
  // parent is read first thing: read after the web is generated and the address printed, a loaded
  // machine could let npm be killed in between, and the orphan would record init as its parent and never stop
  const parent = process.ppid;
  const p = parseCommand(argv, io, USAGE, {
    web: { type: 'string' },
    seed: { type: 'string' },
    port: { type: 'string' },
    'no-faults': { type: 'boolean' },
    warc: { type: 'string', multiple: true },
    holes: { type: 'string' },
    documents: { type: 'boolean' },
  });
  if (!p) return 0;
  const v = p.values;
  if (v.holes !== undefined && !HOLE_POLICIES.includes(v.holes as HolePolicy))
    usage(`--holes: "${v.holes}" is not one of ${HOLE_POLICIES.join(', ')}`);
  if ((v.holes !== undefined || v.documents) && !v.warc?.length)
    usage('--holes and --documents apply to --warc archives');
  const port = intFlag('port', v.port as string | undefined, 0, 65535) ?? 0;
  const listenFailed = (e: NodeJS.ErrnoException): never =>
    failed(`cannot listen on 127.0.0.1:${port} (${e.code ?? e.message})`);

  const at: ServeAt = { io, port, listenFailed };
  const close = v.warc?.length ? await serveArchives(v.warc, v, at) : await serveWeb(v, at);
  // serves until asked to stop (a signal, or the parent gone), then closes and returns
  let orphaned: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    io.onStop?.(() => resolve());
    orphaned = setInterval(() => {
      if (process.ppid !== parent) resolve();
    }, 500).unref();
  });
  clearInterval(orphaned);
  try {
    await close();
  } catch (err) {
    failed(`closing the server: ${err instanceof Error ? err.message : String(err)}`);
  }
  return 0;
}

await runAsProcess(main, import.meta);

/** Where and to whom the server speaks: the output, the port, and the one line a failed listen ends in. */
interface ServeAt {
  io: CliIo;
  port: number;
  listenFailed: (e: NodeJS.ErrnoException) => never;
}

type ServeFlags = { holes?: string; documents?: boolean; 'no-faults'?: boolean; web?: string; seed?: string };

/** An archive's pages replayed (--warc); returns what closes the server. */
async function serveArchives(
  files: string[],
  v: ServeFlags,
  { io, port, listenFailed }: ServeAt,
): Promise<() => Promise<void>> {
  for (const f of files) if (!existsSync(f)) usage(`--warc: "${f}" does not exist`);
  const t0 = performance.now();
  const archive = await WarcArchive.open(files).catch((e: Error) =>
    usage(`--warc: cannot read the archive (${e.message.split('\n')[0]})`),
  );
  for (const w of archive.warnings) io.err(`warning: ${w}\n`);
  const web = await ArchiveWeb.open(archive, {
    holes: (v.holes as HolePolicy | undefined) ?? 'open',
    documents: v.documents ? DEFAULT_DOCUMENT_EXTENSIONS : [],
  });
  const replay = await ReplayServer.start(web, { port }).catch(listenFailed);
  io.out(
    `replaying ${archive.size} URLs (${archive.records} records, indexed in ${Math.round(performance.now() - t0)} ms) of ${archive.hosts().length} hosts` +
      (archive.reading.damaged
        ? ` (${archive.reading.damaged} damaged stretches, ${archive.reading.skippedBytes} bytes, left out: the warnings above)`
        : '') +
      `${v.documents ? `, ${web.documentUrls().length} known documents as placeholders` : ''}; holes ${web.policy.holes}\nlistening on ${replay.origin}\n`,
  );
  return () => replay.close();
}

/** A generated web served (--web, --seed); returns what closes the server. */
async function serveWeb(v: ServeFlags, { io, port, listenFailed }: ServeAt): Promise<() => Promise<void>> {
  const { config, seed } = webAndSeed(v);
  const t0 = performance.now();
  const web = new Web(config, seed);
  const server = await SimServer.start(web, { port, faults: !v['no-faults'] }).catch(listenFailed);
  const depts = web.sites.filter((s) => s.kind === 'department');
  io.out(
    `synthetic web "${config.name}" seed ${seed}: ${web.n} pages on ${web.sites.length} hosts, generated in ${Math.round(performance.now() - t0)} ms\n` +
      `listening on ${server.origin}\n` +
      `departments:\n${depts.map((s) => `  http://${s.host}/  (${s.count} pages, region ${server.regionOf(s.host)})`).join('\n')}\n` +
      (server.deepSites.size
        ? `search sites:\n${[...server.deepSites.values()]
            .map((d) => `  http://${d.host}/  (${d.cfg.kind}, ${d.db.n} records, ${d.method} form at /search)`)
            .join('\n')}\n`
        : '') +
      `try: curl -H 'Host: ${depts[0].host}' ${server.origin}/\n` +
      `     curl --resolve '${depts[0].host}:${server.port}:127.0.0.1' http://${depts[0].host}:${server.port}/robots.txt\n`,
  );
  return () => server.close();
}
