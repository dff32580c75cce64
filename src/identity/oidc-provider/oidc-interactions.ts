import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { InteractionDetails } from 'oidc-provider';
import { DataSource } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { requestContextOf } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import { AuthUser, mfaPending } from '../../platform/web/auth-user';
import { OIDC_SCOPES } from '../../shared/identity/oidc-clients';
import { OidcClient } from './entities/oidc-client.entity';
import { OidcConsent } from './entities/oidc-consent.entity';
import { OidcSessionLink } from './entities/oidc-session-link.entity';
import { acrOf, amrOf, isMultiFactor } from './oidc-account';
import { consentPage, errorPage, originsOf, pageCsp } from './oidc-pages';
import { INTERACTION_PATH, SILENT_PARAM } from './library/oidc-paths';
import { PortalSessionReader } from './portal-session';

/** What an interaction ends with: a sign-in and its grant, or an error sent back to the application. */
type Outcome = { error: string; error_description: string } | 'card' | 'reauthenticate' | 'consent' | 'done';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The sign-in of the portal's OpenID provider: /oidc/auth hands the browser here when it needs a sign-in or a
 * consent. The portal's own session decides, as the portal's pages would (PortalSessionReader): with a live one the
 * sign-in finishes at once, without a page; without one the browser goes to the portal's login card, which brings it
 * back here. An organisation's application lets in only that organisation's members, each consenting once; the
 * deployment's applications ask no consent.
 */
@Injectable()
export class OidcInteractions {
  private readonly logger = new Logger('OidcInteractions');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly portal: PortalSessionReader,
    private readonly audit: AuditService,
  ) {}

  /** The Express handler of /oidc/interaction/..., with the provider as built now. */
  async handle(req: Request, res: Response, provider: Provider): Promise<void> {
    const match = /^\/oidc\/interaction\/([A-Za-z0-9_-]{1,64})(\/(confirm|abort))?$/.exec(req.path);
    const action = match?.[3];
    if (!match || (action === undefined ? req.method !== 'GET' : req.method !== 'POST')) {
      return this.page(res, 404, errorPage('not_found', 'This address does not exist.'));
    }
    let details: InteractionDetails;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return this.page(
        res,
        400,
        errorPage('session_expired', 'This sign-in has expired: start again from the application.'),
      );
    }
    if (details.uid !== match[1])
      return this.page(
        res,
        400,
        errorPage('session_expired', 'This sign-in has expired: start again from the application.'),
      );
    const finish = (result: Record<string, unknown>) =>
      provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });

    if (action === 'abort') return finish({ error: 'access_denied', error_description: 'The sign-in was cancelled.' });

    const outcome = await this.decide(provider, req, details, action === 'confirm');
    if (typeof outcome === 'object') return finish(outcome);
    const back = `${INTERACTION_PATH}/${details.uid}`;
    if (outcome === 'card' || outcome === 'reauthenticate') {
      const query = new URLSearchParams({ returnTo: back });
      if (outcome === 'reauthenticate') query.set('prompt', 'login');
      res.redirect(303, `/logIn?${query.toString()}`);
      return;
    }
    if (outcome === 'consent') {
      const client = await this.client(details);
      const page = consentPage(
        client?.name ?? 'This application',
        this.scopes(details),
        `${back}/confirm`,
        `${back}/abort`,
      );
      return this.page(res, 200, page, originsOf(client?.redirectUris));
    }
  }

  /** What this interaction comes to now, for the browser's portal session; 'done' after finishing the sign-in. */
  private async decide(
    provider: Provider,
    req: Request,
    details: InteractionDetails,
    confirmed: boolean,
  ): Promise<Outcome> {
    const silent = details.params[SILENT_PARAM] === '1' || (details.params.prompt ?? '').split(' ').includes('none');
    const client = await this.client(details);
    if (!client) return { error: 'access_denied', error_description: 'This application is no longer registered.' };
    const portal = await this.portal.read(req.cookies as Record<string, string> | undefined, req.ip);
    if (portal.state === 'refused') return { error: 'access_denied', error_description: portal.reason };
    if (portal.state === 'none')
      return silent ? { error: 'login_required', error_description: 'Sign in to the portal first.' } : 'card';
    // The organisation requires a second factor this member has not set up: the portal's own pages allow nothing but
    // the enrolment, and neither does an application.
    if (mfaPending(portal.user))
      return { error: 'access_denied', error_description: 'Set up a second factor at the portal first.' };
    const user = portal.user;
    if (client.organisationId !== null && client.organisationId !== user.organisationId)
      return { error: 'access_denied', error_description: "This application is only for its organisation's members." };

    const authenticatedAt = seconds(user.authenticatedAt);
    const reasons = details.prompt.name === 'login' ? details.prompt.reasons : [];
    // Signed in after this interaction began (at the card it sent the browser to): a whole second later at least, as
    // the interaction's start is known to the second.
    const signedInHere = user.authenticatedAt.getTime() >= (details.iat + 1) * 1000;
    const maxAge = details.params.max_age === undefined ? undefined : Number(details.params.max_age);
    const stale =
      (reasons.includes('login_prompt') && !signedInHere) ||
      (maxAge !== undefined && Number.isFinite(maxAge) && seconds(new Date()) - authenticatedAt > maxAge);
    const wantsMfa = (details.params.acr_values ?? '').split(' ').includes('mfa');
    if (stale) return silent ? { error: 'login_required', error_description: 'Sign in again.' } : 'reauthenticate';
    if (wantsMfa && !isMultiFactor(user.signInMethod)) {
      if (silent || signedInHere || !(user.isMFAEnabled || user.hasPasskey))
        return {
          error: 'access_denied',
          error_description: 'This application asks for a sign-in with a second factor.',
        };
      return 'reauthenticate';
    }

    const scopes = this.scopes(details);
    if (client.organisationId !== null && !confirmed) {
      const consent = await this.db
        .getRepository(OidcConsent)
        .findOneBy({ userId: user.id, clientId: client.clientId });
      const given = new Set(consent?.scopes.split(' ') ?? []);
      if (!consent || !scopes.every((s) => given.has(s))) {
        return silent
          ? { error: 'consent_required', error_description: 'The application needs your consent.' }
          : 'consent';
      }
    }
    await this.finishSignIn(provider, req, details, client, user, portal.sessionId, scopes);
    return 'done';
  }

  private async finishSignIn(
    provider: Provider,
    req: Request,
    details: InteractionDetails,
    client: OidcClient,
    user: AuthUser,
    sessionId: string,
    scopes: string[],
  ): Promise<void> {
    const accountId = String(user.id);
    // A grant lives within one portal session: one made in another (ended, or another sign-in's) is not carried on.
    const links = this.db.getRepository(OidcSessionLink);
    const previous = details.grantId ? await links.findOneBy({ grantId: details.grantId }) : null;
    const reusable = previous?.portalSessionId === sessionId && !previous.loggedOutAt;
    const existing = reusable && details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId: client.clientId });
    grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    if (!existing)
      await links.insert({ grantId, portalSessionId: sessionId, userId: user.id, clientId: client.clientId });
    await this.recordConsent(req, user, client, scopes);
    const res = req.res!;
    await provider.interactionFinished(
      req,
      res,
      {
        login: {
          accountId,
          ts: seconds(user.authenticatedAt),
          amr: amrOf(user.signInMethod),
          acr: acrOf(user.signInMethod),
          remember: true,
        },
        consent: { grantId },
      },
      { mergeWithLastSubmission: false },
    );
  }

  /**
   * The application's access as the member's "Applications with access" lists it: the scopes given, since when. A
   * consent given on the consent screen (an organisation's application) is audited.
   */
  private async recordConsent(req: Request, user: AuthUser, client: OidcClient, scopes: string[]): Promise<void> {
    const now = new Date();
    await this.db.transaction(async (tx) => {
      const repo = tx.getRepository(OidcConsent);
      const key = { userId: user.id, clientId: client.clientId };
      const existing = await repo.findOneBy(key);
      const before = new Set(existing?.scopes.split(' ') ?? []);
      const all = new Set([...before, ...scopes]);
      const kept = OIDC_SCOPES.filter((s) => all.has(s)).join(' ');
      if (existing) await repo.update(key, { scopes: kept, lastUsedAt: now });
      else await repo.insert({ ...key, scopes: kept, grantedAt: now, lastUsedAt: now });
      await tx.getRepository(OidcClient).update({ clientId: client.clientId }, { lastUsedAt: now });
      if (client.organisationId !== null && scopes.some((s) => !before.has(s))) {
        const me = await tx.getRepository(User).findOneBy({ id: user.id });
        await this.audit.record(tx, {
          type: 'OIDC_CONSENT_GIVEN',
          actor: user,
          target: me,
          client: requestContextOf(req),
          summary: `Application "${client.name}" allowed to read ${scopes.join(', ')}`,
        });
      }
    });
  }

  private client(details: InteractionDetails): Promise<OidcClient | null> {
    const clientId = details.params.client_id;
    return clientId ? this.db.getRepository(OidcClient).findOneBy({ clientId }) : Promise.resolve(null);
  }

  /** The scopes asked for that the provider knows, in the catalogue's order. */
  private scopes(details: InteractionDetails): string[] {
    const asked = new Set((details.params.scope ?? '').split(' '));
    return OIDC_SCOPES.filter((s) => asked.has(s));
  }

  /** One of the provider's pages, with its own content security policy (no script; forms to `formTargets`). */
  private page(res: Response, status: number, html: string, formTargets: string[] = []): void {
    res.setHeader('Content-Security-Policy', pageCsp(formTargets));
    res.status(status).type('html').send(html);
  }
}
