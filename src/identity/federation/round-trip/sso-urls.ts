/** The addresses of a connection, as the provider's administrator registers them and the browser follows them. */
export function ssoUrls(publicUrl: string, connectionId: number) {
  return {
    login: `${publicUrl}/auth/sso/${connectionId}`,
    oidcRedirect: oidcRedirectUri(publicUrl),
    spEntityId: `${publicUrl}/auth/saml/${connectionId}/metadata`,
    spMetadata: `${publicUrl}/auth/saml/${connectionId}/metadata`,
    acs: `${publicUrl}/auth/saml/${connectionId}/acs`,
    slo: `${publicUrl}/auth/saml/${connectionId}/slo`,
    backChannelLogout: `${publicUrl}/auth/sso/${connectionId}/backchannel-logout`,
    afterLogout: `${publicUrl}/logIn`,
  };
}

/** GET /callback ends every OIDC round trip, of a connection or of the deployment-wide provider. */
export function oidcRedirectUri(publicUrl: string): string {
  return `${publicUrl}/callback`;
}
