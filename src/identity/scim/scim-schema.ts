/** The SCIM 2.0 schemas this service speaks (RFC 7643) and its discovery documents (RFC 7644 §4). */

export const SCHEMAS = {
  USER: 'urn:ietf:params:scim:schemas:core:2.0:User',
  ENTERPRISE_USER: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  GROUP: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  LIST: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  PATCH: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  SERVICE_PROVIDER_CONFIG: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  RESOURCE_TYPE: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  SCHEMA: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The most resources one page of a list holds (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;
/** The most operations one PATCH may carry. */
export const MAX_OPERATIONS = 1000;

interface AttributeDef {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'dateTime' | 'reference';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'default' | 'never' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: AttributeDef[];
  referenceTypes?: string[];
}

const attr = (name: string, description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({
  name,
  type: 'string',
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const USER_ATTRIBUTES: AttributeDef[] = [
  attr('userName', "The account's e-mail address, with which it signs in; unique across the product.", {
    required: true,
    uniqueness: 'server',
  }),
  attr('name', 'The components of the user’s name.', {
    type: 'complex',
    subAttributes: [
      attr('formatted', 'Given and family name.', { mutability: 'readOnly' }),
      attr('givenName', 'First name (at most 100 characters).'),
      attr('familyName', 'Last name (at most 100 characters).'),
    ],
  }),
  attr('displayName', 'Given and family name.', { mutability: 'readOnly' }),
  attr('title', 'Job title (at most 100 characters).'),
  attr('active', 'Whether the account may sign in. false ends its sessions at once.', { type: 'boolean' }),
  attr('emails', 'The account’s e-mail address: always userName.', {
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attr('value', 'E-mail address.'),
      attr('type', 'work'),
      attr('primary', 'true', { type: 'boolean' }),
    ],
  }),
];

const ENTERPRISE_ATTRIBUTES: AttributeDef[] = [attr('department', 'Department (at most 100 characters).')];

const GROUP_ATTRIBUTES: AttributeDef[] = [
  attr('displayName', 'The group’s name, unique within the organisation (at most 100 characters).', {
    required: true,
    uniqueness: 'server',
  }),
  attr('members', 'The group’s users, by their id.', {
    type: 'complex',
    multiValued: true,
    subAttributes: [
      attr('value', 'User id.', { mutability: 'immutable' }),
      attr('display', 'The user’s e-mail.', { mutability: 'readOnly' }),
      attr('$ref', 'The user’s URI.', { type: 'reference', mutability: 'readOnly', referenceTypes: ['User'] }),
    ],
  }),
];

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCHEMAS.SERVICE_PROVIDER_CONFIG],
    documentationUri: `${base}/user-manual`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Provisioning token',
        description: 'A provisioning token of the organisation, sent as Authorization: Bearer <token>.',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/scim/v2/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [SCHEMAS.RESOURCE_TYPE],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'An account of the organisation',
      schema: SCHEMAS.USER,
      schemaExtensions: [{ schema: SCHEMAS.ENTERPRISE_USER, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/scim/v2/ResourceTypes/User` },
    },
    {
      schemas: [SCHEMAS.RESOURCE_TYPE],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A user group of the organisation',
      schema: SCHEMAS.GROUP,
      meta: { resourceType: 'ResourceType', location: `${base}/scim/v2/ResourceTypes/Group` },
    },
  ];
}

export function schemaDocuments(base: string) {
  const schema = (id: string, name: string, description: string, attributes: AttributeDef[]) => ({
    schemas: [SCHEMAS.SCHEMA],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: 'Schema', location: `${base}/scim/v2/Schemas/${id}` },
  });
  return [
    schema(SCHEMAS.USER, 'User', 'User account', USER_ATTRIBUTES),
    schema(SCHEMAS.ENTERPRISE_USER, 'EnterpriseUser', 'Enterprise user', ENTERPRISE_ATTRIBUTES),
    schema(SCHEMAS.GROUP, 'Group', 'User group', GROUP_ATTRIBUTES),
  ];
}
