// A TCP relay between one replica and PostgreSQL that a test can cut and restore, as a network partition
// does: while cut, nothing crosses it either way and nothing is refused or reset (the bytes wait, as TCP's
// retransmissions would), and a new connection is accepted but reaches nothing. Restored, what waited
// flows on and waiting connections are put through; whoever gave up meanwhile has closed its side.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  readonly port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpRelay> {
  let cut = false;
  const open = new Set<Socket>();
  /** Connections accepted while cut, put through on restore. */
  const waiting = new Set<Socket>();

  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      waiting.delete(socket);
    });
    socket.on('error', () => socket.destroy());
  };
  /** Copies `from` to `to`, pausing for a full `to` (not pipe(): its drain would resume a cut link). */
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (!cut) from.resume();
    });
  };
  const putThrough = (client: Socket) => {
    const server = connect(targetPort, targetHost);
    track(server);
    forward(client, server);
    forward(server, client);
    client.once('close', () => server.destroy());
    server.once('close', () => client.destroy());
    client.resume();
  };
  const relay: Server = createServer((client) => {
    track(client);
    if (cut) {
      client.pause();
      waiting.add(client);
    } else putThrough(client);
  });
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (relay.address() as { port: number }).port,
    cut() {
      cut = true;
      // Paused, a socket reads nothing more: what is sent to it waits in the kernel, as on a dead link.
      for (const socket of open) socket.pause();
    },
    restore() {
      cut = false;
      for (const socket of open) if (!waiting.has(socket)) socket.resume();
      for (const client of waiting) putThrough(client);
      waiting.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
