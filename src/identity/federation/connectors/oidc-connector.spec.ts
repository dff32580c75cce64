import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:net';
import { encrypt } from '../../../platform/crypto/secrets';
import { AppConfig } from '../../../platform/config/env.validation';
import { SsoConnection } from '../entities/sso-connection.entity';
import { OidcConnector } from './oidc-connector';
import { testSecret } from '../../../../test/utils/secrets';

describe('OidcConnector: requests to a customer-supplied provider', () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const key = randomBytes(32);
  const connector = (allowPrivateNetworks: boolean) =>
    new OidcConnector({
      ssoAllowPrivateNetworks: allowPrivateNetworks,
      encryptionKey: key,
      publicUrl: 'https://portal.test',
    } as AppConfig);
  const connection = (issuer: string) =>
    Object.assign(new SsoConnection(), {
      id: 7,
      protocol: 'oidc',
      oidcIssuer: issuer,
      oidcClientId: 'portal',
      oidcClientSecret: encrypt(testSecret('client'), key),
      updatedAt: new Date(),
    });

  it('never connects to a private address (here this host) unless SSO_ALLOW_PRIVATE_NETWORKS is set', async () => {
    connections = 0;
    await expect(connector(false).configuration(connection(`https://127.0.0.1:${port}`))).rejects.toMatchObject({
      status: 502,
    });
    expect(connections).toBe(0);

    // The same discovery with the switch does reach the address (and fails there: nothing answers it).
    await expect(connector(true).configuration(connection(`https://127.0.0.1:${port}`))).rejects.toMatchObject({
      status: 502,
    });
    expect(connections).toBeGreaterThan(0);
  });
});
