// Container image references as Karmada's image overrider reads and rewrites them (pkg/util/imageparser, on
// github.com/distribution/reference's grammar): hostname, repository, and a tag or a digest.

/** An image reference that does not parse. */
export class InvalidImageReferenceError extends Error {
  constructor(image: string, reason: string) {
    super(
      `image ${JSON.stringify(image)} is not a valid reference: ${reason}; fix the image or the overrider`,
    );
    this.name = 'InvalidImageReferenceError';
  }
}

// distribution/reference's grammar, as regular-expression source.
const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domainName = `${domainComponent}(?:\\.${domainComponent})*`;
const host = `(?:${domainName}|\\[(?:[a-fA-F0-9:]+)\\])`;
const domainAndPort = `${host}(?::[0-9]+)?`;
const name = `(?:${domainAndPort}/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const reference = new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`);
const anchoredTag = new RegExp(`^${tag}$`);
const anchoredDigest = new RegExp(`^${digest}$`);

const NAME_TOTAL_LENGTH_MAX = 255;
// The digest algorithms Karmada's binary registers (crypto/sha256 and crypto/sha512), with their hex lengths.
const DIGEST_HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** The parts of an image reference Karmada's overrider works on; a reference has a tag or a digest, not both. */
export interface ImageComponents {
  hostname: string;
  repository: string;
  tag: string;
  digest: string;
}

/**
 * Parse like imageparser.Parse: the name is split into hostname and repository at the first '/' when the first
 * part has a '.' or ':' or is "localhost"; a reference with both a tag and a digest keeps only the tag.
 */
export function parseImage(image: string): ImageComponents {
  const match = reference.exec(image);
  if (match === null) {
    if (image === '')
      throw new InvalidImageReferenceError(image, 'repository name must have at least one component');
    if (reference.test(image.toLowerCase())) {
      throw new InvalidImageReferenceError(image, 'repository name must be lowercase');
    }
    throw new InvalidImageReferenceError(image, 'invalid reference format');
  }
  const [, fullName = '', tagPart = '', digestPart = ''] = match;
  if (fullName.length > NAME_TOTAL_LENGTH_MAX) {
    throw new InvalidImageReferenceError(
      image,
      `repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`,
    );
  }
  if (digestPart !== '') validateDigest(image, digestPart);
  const slash = fullName.indexOf('/');
  const first = slash < 0 ? '' : fullName.slice(0, slash);
  const split = slash >= 0 && (/[.:]/.test(first) || first === 'localhost');
  return {
    hostname: split ? first : '',
    repository: split ? fullName.slice(slash + 1) : fullName,
    tag: tagPart,
    digest: tagPart === '' ? digestPart : '',
  };
}

function validateDigest(image: string, value: string): void {
  const colon = value.indexOf(':');
  const algorithm = value.slice(0, colon);
  const hex = value.slice(colon + 1);
  const length = DIGEST_HEX_LENGTH[algorithm];
  if (length === undefined) throw new InvalidImageReferenceError(image, 'unsupported digest algorithm');
  if (hex.length !== length || !/^[a-f0-9]+$/.test(hex)) {
    throw new InvalidImageReferenceError(image, 'invalid checksum digest length or format');
  }
}

/** The reference as text: [hostname/]repository, then :tag or @digest. */
export function formatImage(c: Readonly<ImageComponents>): string {
  const repository = c.hostname === '' ? c.repository : `${c.hostname}/${c.repository}`;
  if (c.tag !== '') return `${repository}:${c.tag}`;
  if (c.digest !== '') return `${repository}@${c.digest}`;
  return repository;
}

/** SetTagOrDigest: a valid tag replaces tag and digest; else a valid digest does; else nothing changes. */
export function setTagOrDigest(c: ImageComponents, value: string): void {
  if (anchoredTag.test(value)) {
    c.tag = value;
    c.digest = '';
  } else if (anchoredDigest.test(value)) {
    c.digest = value;
    c.tag = '';
  }
}
