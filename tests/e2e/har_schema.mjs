// har_schema.mjs: the HAR 1.2 schema (softwareishard.com/blog/har-12-spec,
// as the har-schema package writes it in JSON Schema: every object's
// required members, each member's type, the minimums of times and the form
// of dates) and a validator for it that names every violation with its
// path, so an e2e test can check an exported HAR as a reader of the format
// would. Members a schema does not name are allowed (HAR's custom "_x").
const DATE_TIME = /^(\d{4})(-)?(\d\d)(-)?(\d\d)(T)?(\d\d)(:)?(\d\d)(:)?(\d\d)(\.\d+)?(Z|([+-])(\d\d)(:)?(\d\d))/;
const str = { type: 'string' };
const comment = str;
const time = { type: 'number', minimum: -1 };
const record = { type: 'object', required: ['name', 'value'], properties: { name: str, value: str, comment } };
const creator = { type: 'object', required: ['name', 'version'], properties: { name: str, version: str, comment } };
const cookie = {
  type: 'object', required: ['name', 'value'],
  properties: { name: str, value: str, path: str, domain: str, expires: { type: ['string', 'null'], pattern: DATE_TIME },
    httpOnly: { type: 'boolean' }, secure: { type: 'boolean' }, comment },
};
const cacheEntry = {
  type: ['object', 'null'], required: ['lastAccess', 'eTag', 'hitCount'],
  properties: { expires: str, lastAccess: str, eTag: str, hitCount: { type: 'integer' }, comment },
};
const postData = {
  type: 'object', required: ['mimeType'],
  properties: {
    mimeType: str, text: str, comment,
    params: { type: 'array', items: { type: 'object', required: ['name'],
      properties: { name: str, value: str, fileName: str, contentType: str, comment } } },
  },
};
const request = {
  type: 'object', required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
  properties: {
    method: str, url: { type: 'string', format: 'uri' }, httpVersion: str,
    cookies: { type: 'array', items: cookie }, headers: { type: 'array', items: record },
    queryString: { type: 'array', items: record }, postData,
    headersSize: { type: 'integer' }, bodySize: { type: 'integer' }, comment,
  },
};
const content = {
  type: 'object', required: ['size', 'mimeType'],
  properties: { size: { type: 'integer' }, compression: { type: 'integer' }, mimeType: str, text: str, encoding: str, comment },
};
const response = {
  type: 'object',
  required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
  properties: {
    status: { type: 'integer' }, statusText: str, httpVersion: str,
    cookies: { type: 'array', items: cookie }, headers: { type: 'array', items: record }, content,
    redirectURL: str, headersSize: { type: 'integer' }, bodySize: { type: 'integer' }, comment,
  },
};
const entry = {
  type: 'object', required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
  properties: {
    pageref: str, startedDateTime: { type: 'string', pattern: DATE_TIME }, time: { type: 'number', minimum: 0 },
    request, response,
    cache: { type: 'object', properties: { beforeRequest: cacheEntry, afterRequest: cacheEntry, comment } },
    timings: { type: 'object', required: ['send', 'wait', 'receive'],
      properties: { dns: time, connect: time, blocked: time, send: time, wait: time, receive: time, ssl: time, comment } },
    serverIPAddress: str, connection: str, comment,
  },
};
const page = {
  type: 'object', required: ['startedDateTime', 'id', 'title', 'pageTimings'],
  properties: { startedDateTime: { type: 'string', pattern: DATE_TIME }, id: str, title: str,
    pageTimings: { type: 'object', properties: { onContentLoad: time, onLoad: time, comment } }, comment },
};
export const harSchema = {
  type: 'object', required: ['log'],
  properties: {
    log: { type: 'object', required: ['version', 'creator', 'entries'],
      properties: { version: str, creator, browser: creator, pages: { type: 'array', items: page },
        entries: { type: 'array', items: entry }, comment } },
  },
};

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

// Every violation of `schema` by `value`, as "path: what".
export function validate(value, schema = harSchema, path = 'har') {
  const problems = [];
  const types = [].concat(schema.type || []);
  const actual = typeOf(value);
  if (types.length && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    return [`${path}: is ${actual}, must be ${types.join(' or ')}`];
  }
  if (actual === 'null') return problems;
  if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: ${value} < ${schema.minimum}`);
  if (schema.pattern && !schema.pattern.test(value)) problems.push(`${path}: "${value}" is not a date-time`);
  if (schema.format === 'uri') {
    try { new URL(value); } catch { problems.push(`${path}: "${value}" is not a URI`); }
  }
  if (actual === 'object') {
    for (const name of schema.required || []) if (!(name in value)) problems.push(`${path}: lacks ${name}`);
    for (const [name, sub] of Object.entries(schema.properties || {})) {
      if (name in value) problems.push(...validate(value[name], sub, `${path}.${name}`));
    }
  }
  if (actual === 'array' && schema.items) value.forEach((item, i) => problems.push(...validate(item, schema.items, `${path}[${i}]`)));
  return problems;
}
