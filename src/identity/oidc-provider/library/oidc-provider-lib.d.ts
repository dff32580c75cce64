/**
 * The parts of oidc-provider 9 (which ships no type declarations) this module uses, as its documentation
 * (docs/README.md of the package) describes them.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextLike {
    path: string;
    method: string;
    query: Record<string, string | string[] | undefined>;
    querystring: string;
    status: number;
    body: unknown;
    type: string;
    /** Express's request: its `ip` is the client address as the portal decides it (platform/web/http/client-address.ts). */
    req: IncomingMessage & { cookies?: Record<string, string>; ip?: string };
    res: ServerResponse;
    state: Record<string, unknown>;
    set(name: string, value: string): void;
    oidc?: OidcContext;
  }

  export interface SessionLike {
    uid: string;
    jti: string;
    accountId?: string;
    acr?: string;
    amr?: string[];
    loginTs?: number;
    authorizations?: Record<string, { sid?: string; grantId?: string }>;
    past(age: number): boolean;
  }

  export interface ClientLike {
    clientId: string;
    clientName?: string;
    clientAuthMethod: string;
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
    backchannelLogoutUri?: string;
    [key: string]: unknown;
  }

  export interface OidcContext {
    route: string;
    params?: Record<string, unknown>;
    session?: SessionLike;
    client?: ClientLike;
    account?: { accountId: string; [key: string]: unknown };
    entities: Record<string, unknown>;
    prompts: Set<string>;
    result?: { login?: unknown; [key: string]: unknown };
    promptPending(name: string): boolean;
  }

  export type Middleware = (ctx: KoaContextLike, next: () => Promise<void>) => Promise<void>;

  export interface GrantLike {
    jti?: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export interface InteractionDetails {
    uid: string;
    iat: number;
    exp: number;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
    session?: { accountId: string; uid: string; cookie: string; acr?: string; amr?: string[] };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface IdTokenLike {
    mask: Record<string, unknown>;
    set(key: string, value: unknown): void;
    issue(options: { use: string }): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: Middleware): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: {
      new (properties: { accountId: string; clientId: string }): GrantLike;
      find(id: string): Promise<GrantLike | undefined>;
    };
    Client: { find(id: string): Promise<ClientLike | undefined> };
    IdToken: new (claims: Record<string, unknown>, options: { client: ClientLike; ctx: unknown }) => IdTokenLike;
  }

  export class Check {
    constructor(
      reason: string,
      description: string,
      error: string,
      check: (ctx: KoaContextLike & { oidc: OidcContext }) => boolean | Promise<boolean>,
    );
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }

  export interface PromptLike {
    name: string;
    checks: Check[];
  }

  export const interactionPolicy: {
    Check: typeof Check;
    base(): PromptLike[] & { get(name: string): PromptLike | undefined };
  };

  export const errors: Record<string, new (description?: string) => Error>;

  export default Provider;
}
