// The resident size of a served process once its garbage is collected. VmRSS read at a moment counts the
// garbage the collector has not reached yet: V8 lets the old generation grow well past what is live before a
// full collection, so the same server read after the same requests gave 62 and 124 MB more than before them
// (docs/PERFORMANCE.md, "Versions, stop 36"). A server started by inspectedServer listens for the inspector on
// a free local port, and collectedRssMb asks it for a full collection (HeapProfiler.collectGarbage) first.
import { spawn } from 'node:child_process';
import { listeningServer, memoryMb, type Server } from './support.js';

export interface InspectedServer extends Server {
  /** The inspector's WebSocket address. */
  inspector: string;
}

/** A node script started as spawnServer starts it, with the inspector on a free local port. */
export async function inspectedServer(args: string[]): Promise<InspectedServer> {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const inspector = new Promise<string>((resolve) => {
    let tail = '';
    const onData = (chunk: Buffer): void => {
      tail = (tail + chunk.toString()).slice(-4096);
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(tail);
      if (!match) return;
      child.stderr!.off('data', onData);
      resolve(match[1]!);
    };
    child.stderr!.on('data', onData);
  });
  const server = await listeningServer(child, 'SIGTERM', 'server');
  return { ...server, inspector: await inspector };
}

/** The server's VmRSS in MB after a full collection, asked through its inspector. */
export async function collectedRssMb(server: InspectedServer): Promise<number> {
  const socket = new WebSocket(server.inspector);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  await new Promise<void>((resolve) => {
    socket.onmessage = (event) => {
      if ((JSON.parse(String(event.data)) as { id?: number }).id === 1) resolve();
    };
    socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  socket.close();
  return memoryMb(server.child.pid!, 'VmRSS');
}
