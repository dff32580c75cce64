import type { Socket } from 'socket.io';
import { ShutdownState } from '../../platform/shutdown/shutdown-state';
import { SessionsService } from '../../identity/sessions';
import { NotificationSockets, SocketIdentity } from './notification-sockets.service';
import { NotificationsGateway } from './notifications.gateway';
import { testSecret } from '../../../test/utils/secrets';

const TOKEN = testSecret('access-token');

/** A connected socket as handleConnection sees it, its handshake checked at `checkedFrom`. */
function socketOf(identity: SocketIdentity) {
  return {
    id: `socket-${identity.sessionId}`,
    data: identity,
    connected: true,
    conn: { request: {} },
    nsp: { server: {} },
    join: jest.fn(async () => undefined),
    leave: jest.fn(),
    emit: jest.fn(),
    disconnect: jest.fn(),
  };
}

describe('NotificationsGateway, a socket being connected', () => {
  const isActive = jest.fn(async () => true);
  let gateway: NotificationsGateway;
  let sockets: NotificationSockets;
  const identity = (sessionId: string, checkedFrom = Date.now()): SocketIdentity => ({
    userId: 7,
    organisationId: 3,
    sessionId,
    exp: Date.now() / 1000 + 600,
    watchesSessions: false,
    checkedFrom,
  });
  /** What the notification sockets do when this instance or another one ends a session. */
  const sessionEnded = (sessionId: string) =>
    (sockets as unknown as { dropLocalSession(id: string, reason: string): void }).dropLocalSession(
      sessionId,
      'session-ended',
    );

  beforeEach(() => {
    isActive.mockClear();
    sockets = new NotificationSockets(...([undefined, undefined] as unknown as [never, never]));
    gateway = new NotificationsGateway(
      { isActive } as unknown as SessionsService,
      undefined as never,
      sockets,
      new ShutdownState(),
      ...([undefined, undefined] as unknown as [never, never]),
    );
  });

  it('is dropped when its session ended while the handshake was checked, without asking the database again', async () => {
    const checkedFrom = Date.now();
    sessionEnded('s-1');
    const socket = socketOf(identity('s-1', checkedFrom));
    await gateway.handleConnection(socket as unknown as Socket);
    expect(socket.emit).toHaveBeenCalledWith('session', { reason: 'session-ended' });
    expect(socket.disconnect).toHaveBeenCalledWith(true);
    expect(isActive).not.toHaveBeenCalled();
  });

  it('stays when its session is open: one check per connection, the handshake', async () => {
    sessionEnded('another-session');
    const socket = socketOf(identity('s-2'));
    await gateway.handleConnection(socket as unknown as Socket);
    expect(socket.disconnect).not.toHaveBeenCalled();
    expect(socket.leave).toHaveBeenCalledWith(socket.id);
    expect(isActive).not.toHaveBeenCalled();
  });

  it('lets go of the upgrade request and the handshake before its check waits for the database', async () => {
    let requestDuringCheck: unknown = 'not checked';
    const socket = {
      ...socketOf(identity('s-4')),
      handshake: { query: { token: TOKEN }, auth: {}, headers: { host: 'portal.test' } },
    };
    const sessionAuth = {
      authenticate: jest.fn(async () => {
        requestDuringCheck = socket.conn.request;
        return { user: { id: 7, organisationId: 3, sessionId: 's-4', roles: [] }, exp: Date.now() / 1000 + 600 };
      }),
    };
    (gateway as unknown as { sessionAuth: typeof sessionAuth }).sessionAuth = sessionAuth;
    (gateway as unknown as { config: object }).config = { trustProxy: false };
    const checked = await gateway.authenticate(socket as unknown as Socket);
    expect(sessionAuth.authenticate).toHaveBeenCalledWith(TOKEN, expect.anything(), { keep: false });
    expect(requestDuringCheck).toBeNull();
    expect(checked).toMatchObject({ userId: 7, organisationId: 3, sessionId: 's-4' });
  });

  it('asks the database when its handshake began longer ago than the ended sessions are kept', async () => {
    isActive.mockResolvedValueOnce(false);
    const socket = socketOf(identity('s-3', Date.now() - 10 * 60_000));
    await gateway.handleConnection(socket as unknown as Socket);
    expect(isActive).toHaveBeenCalledWith('s-3');
    expect(socket.disconnect).toHaveBeenCalledWith(true);
  });
});
