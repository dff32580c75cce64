import type { Server } from 'socket.io';
import { broadcastAsOneWrite } from './broadcast-frame';
import { markTuned, socketIoInternalsProblems } from './socket-io-internals';

/**
 * Tunes a socket.io server's transport once its namespace has its final adapter: broadcasts as one frame written
 * straight to each websocket (broadcast-frame.ts) and connections that let go of their handshake's engine.io state
 * (release-handshake.ts). Returns what differs from the internals the tuning expects; when anything does, nothing
 * is tuned and the server runs on socket.io's own path.
 */
export function tuneTransport(server: Server): string[] {
  const problems = socketIoInternalsProblems(server.of('/'));
  if (problems.length > 0) return problems;
  markTuned(server);
  broadcastAsOneWrite(server.of('/'));
  return [];
}
