// oidc-provider ships no type declarations. These cover the part of its API that the test issuer
// (oidc-issuer-process.ts, oidc-issuer-provider.ts) uses, as its documentation describes them for v9.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** The request context oidc-provider hands to configuration functions (a Koa context). */
  export interface ProviderContext {
    oidc: {
      client?: { clientId: string };
      route?: string;
      [key: string]: unknown;
    };
    type: string;
    body: unknown;
    host: string;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: {
      name: string;
      details: {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
        [key: string]: unknown;
      };
    };
    params: Record<string, unknown> & { client_id: string; login_hint?: string };
    session?: { accountId: string; uid: string };
    grantId?: string;
  }

  export interface InteractionResults {
    login?: { accountId: string };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantClass {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  /** A token as extraTokenClaims and the TTL functions see it. */
  export interface IssuedToken {
    accountId?: string;
    kind: string;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    readonly Grant: GrantClass;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: InteractionResults, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    on(event: 'server_error', listener: (ctx: ProviderContext, error: Error) => void): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };

  export default Provider;
}
