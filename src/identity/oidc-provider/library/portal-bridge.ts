import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Check, interactionPolicy, KoaContextLike } from 'oidc-provider';
import { DataSource, IsNull, LessThan, Or } from 'typeorm';
import { OIDC_CLIENT_USE_RECORD_MS } from '../../../shared/identity/oidc-clients';
import { Session, SessionsService } from '../../sessions';
import { OidcClient } from '../entities/oidc-client.entity';
import { OidcConsent } from '../entities/oidc-consent.entity';
import { OidcSessionLink } from '../entities/oidc-session-link.entity';
import { PortalSession, PortalSessionReader } from '../portal-session';
import { SILENT_PARAM } from './oidc-paths';
import { ROUTES } from './provider-configuration';

/** What an interaction policy check answers (the library's Check.REQUEST_PROMPT and Check.NO_NEED_TO_PROMPT). */
const REQUEST_PROMPT = true;
const NO_NEED_TO_PROMPT = false;

/** The portal session a request to the provider came with, read once per request by the bridge. */
interface BridgeState {
  portal?: PortalSession;
}

function stateOf(ctx: KoaContextLike): BridgeState {
  return ctx.state as BridgeState;
}

/**
 * The provider's sessions tied to the portal's (docs/oidc-provider.md): a sign-in at the provider is the browser's
 * live portal session, a `prompt=none` request with one goes on as an invisible interaction, a grant is linked to the
 * portal session it was made in (so that ending one ends the other), an introspected token of an ended portal
 * session is inactive, and an application's use is recorded.
 */
@Injectable()
export class OidcPortalBridge {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly portal: PortalSessionReader,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * Runs around every request the provider answers. At the authorization endpoint it reads the browser's portal
   * session once (the login check below and the interaction use it). When a live portal session meets a
   * `prompt=none` request whose provider session is not yet the portal session's, the request goes on as an
   * interaction that shows nothing (marked silent): the interaction signs in with the portal session at once, or
   * answers `login_required`/`consent_required` as `prompt=none` would. After an authorization succeeded, the
   * grant's link to its portal session learns the provider session and `sid`, so that ending one ends the other.
   */
  async around(ctx: KoaContextLike, next: () => Promise<void>): Promise<void> {
    const authorization = ctx.path === ROUTES.authorization || ctx.path.startsWith(`${ROUTES.authorization}/`);
    if (authorization) {
      const portal = await this.portal.read(ctx.req.cookies, ctx.req.ip);
      stateOf(ctx).portal = portal;
      const prompt = typeof ctx.query.prompt === 'string' ? ctx.query.prompt.split(' ') : [];
      if (ctx.method === 'GET' && portal.state === 'live' && prompt.includes('none')) {
        const query = { ...ctx.query };
        const others = prompt.filter((p) => p !== 'none');
        if (others.length > 0) query.prompt = others.join(' ');
        else delete query.prompt;
        query[SILENT_PARAM] = '1';
        ctx.query = query;
      }
    }
    await next();
    const oidc = ctx.oidc;
    if (oidc?.route === 'end_session_confirm' && oidc.params?.logout && oidc.session) {
      // RP-initiated logout ends the portal session too (and through it, every application it signed into). The
      // library has just revoked this provider session's grants and told their applications: their links are done
      // (a failed logout token comes back through 'backchannel.error' to be retried).
      const repo = this.db.getRepository(OidcSessionLink);
      const links = await repo.findBy({ opSessionUid: oidc.session.uid });
      await repo.update({ opSessionUid: oidc.session.uid, loggedOutAt: IsNull() }, { loggedOutAt: new Date() });
      for (const portalSessionId of new Set(links.map((l) => l.portalSessionId)))
        await this.sessions.end(portalSessionId, 'logout');
      return;
    }
    if (oidc?.route === 'introspection' && (ctx.body as { active?: boolean } | undefined)?.active === true) {
      // A token of an ended portal session is inactive from that moment, before the sweep revokes it.
      const grant = oidc.entities.Grant as { jti?: string } | undefined;
      if (!grant?.jti || !(await this.grantLive(grant.jti))) ctx.body = { active: false };
      return;
    }
    if (oidc?.route === 'token' && ctx.status === 200 && oidc.client) {
      await this.recordUse(oidc.client.clientId, oidc.account?.accountId);
      return;
    }
    // After a sign-in: the grant's provider session and the `sid` its ID tokens carry, for back-channel logout.
    const clientId = oidc?.client?.clientId;
    const authorizationOf = clientId ? oidc?.session?.authorizations?.[clientId] : undefined;
    if (!authorization || !clientId || !authorizationOf?.grantId || !oidc?.session?.accountId) return;
    const portal = stateOf(ctx).portal;
    if (portal?.state !== 'live' || String(portal.user.id) !== oidc.session.accountId) return;
    await this.db
      .getRepository(OidcSessionLink)
      .update(
        { grantId: authorizationOf.grantId, portalSessionId: portal.sessionId },
        { opSessionUid: oidc.session.uid, sid: authorizationOf.sid ?? null },
      );
  }

  /** Whether a grant's portal session is still open. */
  private async grantLive(grantId: string): Promise<boolean> {
    const link = await this.db.getRepository(OidcSessionLink).findOneBy({ grantId });
    if (!link || link.loggedOutAt) return false;
    return (await this.db.getRepository(Session).countBy({ id: link.portalSessionId, endedAt: IsNull() })) > 0;
  }

  /** An application's latest use (and its member's), written at most once a minute each. */
  private async recordUse(clientId: string, accountId: string | undefined): Promise<void> {
    const now = new Date();
    const stale = Or(IsNull(), LessThan(new Date(now.getTime() - OIDC_CLIENT_USE_RECORD_MS)));
    await this.db.getRepository(OidcClient).update({ clientId, lastUsedAt: stale }, { lastUsedAt: now });
    if (accountId !== undefined && /^\d+$/.test(accountId))
      await this.db
        .getRepository(OidcConsent)
        .update({ clientId, userId: Number(accountId), lastUsedAt: stale }, { lastUsedAt: now });
  }

  /** The login prompt's first check: the provider session must be the browser's live portal session. */
  loginCheck(): Check {
    return new interactionPolicy.Check(
      'portal_session',
      'End-User authentication is required',
      'login_required',
      async (ctx) => {
        const { oidc } = ctx;
        const session = oidc.session;
        if (!session?.accountId) return NO_NEED_TO_PROMPT; // the library's own no_session check asks
        // Just signed in by the interaction, which read the portal session itself.
        if (oidc.result?.login) return NO_NEED_TO_PROMPT;
        const portal = stateOf(ctx).portal;
        if (portal?.state !== 'live' || String(portal.user.id) !== session.accountId) return REQUEST_PROMPT;
        const acrValues = typeof oidc.params?.acr_values === 'string' ? oidc.params.acr_values.split(' ') : [];
        if (acrValues.includes('mfa') && session.acr !== 'mfa') return REQUEST_PROMPT;
        // max_age counts from the portal session's latest proof of identity (its sign-in or step-up).
        const maxAge = oidc.params?.max_age === undefined ? undefined : Number(oidc.params.max_age);
        if (maxAge !== undefined && Date.now() - portal.user.authenticatedAt.getTime() > maxAge * 1000)
          return REQUEST_PROMPT;
        // The application's grant in this provider session must have been made in this very portal session.
        const grantId = oidc.client ? session.authorizations?.[oidc.client.clientId]?.grantId : undefined;
        if (!grantId) return REQUEST_PROMPT;
        const link = await this.db.getRepository(OidcSessionLink).findOneBy({ grantId });
        return link?.portalSessionId === portal.sessionId && !link.loggedOutAt ? NO_NEED_TO_PROMPT : REQUEST_PROMPT;
      },
    );
  }
}
