import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A promise and the function that resolves it: how a test waits for a step another party takes, without sleeping. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Starts `server` on a free loopback port; resolves to that port. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}
