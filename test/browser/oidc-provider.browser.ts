import { expect, test } from '@playwright/test';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import { decodeJwt } from 'jose';
import { expectAccessible } from './support/axe';
import { acceptTerms } from './support/login';
import { seedOrganisation, seedUser } from './support/seed';
import { BASE_URL } from './support/server';

// axe-core and HTML_CodeSniffer are injected into the provider's pages, whose CSP allows no script.
test.use({ bypassCSP: true });

/** The relying party's redirect URI: a loopback page that answers every request with a short text. */
async function loopback(): Promise<{ server: Server; redirectUri: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb` };
}

test("an organisation's application: authorize, the login card with password and TOTP, consent, and a code the application exchanges", async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const member = await seedUser(org.id, { roleId: 6 });

  // The member enrols TOTP through the API, as the profile page would.
  const signedIn = await request.post('/auth/login', {
    data: { username: member.email, password: member.password, acceptToS: true },
  });
  const memberAuth = { Authorization: `Bearer ${(await signedIn.json()).accessToken}` };
  const { secret } = await (await request.post('/mfa/enable', { headers: memberAuth })).json();
  const enrolled = await request.post('/mfa/verify', {
    headers: memberAuth,
    data: { token: await generate({ secret: secret.base32 }) },
  });
  expect(enrolled.status()).toBe(200);

  // The site admin registers the organisation's own tool: a public client with a loopback redirect URI.
  const { server, redirectUri } = await loopback();
  try {
    const adminLogin = await request.post('/auth/login', {
      data: { username: admin.email, password: admin.password, acceptToS: true },
    });
    const registered = await request.post('/api/oidc-clients', {
      headers: { Authorization: `Bearer ${(await adminLogin.json()).accessToken}` },
      data: { name: 'Org reporting tool', type: 'public', redirectUris: [redirectUri] },
    });
    expect(registered.status()).toBe(201);
    const { clientId } = (await registered.json()) as { clientId: string };

    const config = await oidc.discovery(new URL(BASE_URL), clientId, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email organisation',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });

    // No portal session in this browser: the login card, then password and TOTP.
    await page.goto(authorize.href);
    await expect(page).toHaveURL(/\/logIn\?returnTo=%2Foidc%2Finteraction%2F/);
    await acceptTerms(page);
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Please enter TOTP before proceeding.')).toBeVisible();
    // The next time step: the enrolment's code is spent.
    const code = await generate({ secret: secret.base32, epoch: Math.floor(Date.now() / 1000) + 30 });
    await page.getByLabel('MFA Token').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();

    // The consent screen names the application and what it will read.
    await expect(page.getByRole('heading', { name: 'Allow Org reporting tool?' })).toBeVisible();
    await expect(page).toHaveURL(/\/oidc\/interaction\//);
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await expectAccessible(page, 'OpenID provider, consent screen');
    await page.getByRole('button', { name: 'Allow' }).click();

    // Back at the application with a code, which it exchanges (PKCE) for tokens of a two-factor sign-in.
    await expect(page).toHaveURL(new RegExp(`^${redirectUri}\\?code=`));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const claims = decodeJwt(tokens.id_token!);
    expect(claims).toMatchObject({ sub: String(member.id), email: member.email, amr: ['pwd', 'otp', 'mfa'] });
    expect(claims.org_id).toBe(String(org.id));

    // The same browser is signed in at the portal too.
    await page.goto('/');
    await expect(page.getByTestId('profile-button')).toBeVisible();
  } finally {
    server.close();
  }
});
